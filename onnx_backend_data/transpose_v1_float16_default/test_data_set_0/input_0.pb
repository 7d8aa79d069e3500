
BxJÅb®^TYªcÒäÒ¢à`Õ`¦âF]`YYYoÜ¢Þ