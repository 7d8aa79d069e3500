
By0J»ÌSQùDÓIHiAÈÀÒLQQÏêS™Î