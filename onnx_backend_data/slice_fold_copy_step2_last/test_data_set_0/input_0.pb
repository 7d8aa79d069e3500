Bx0J ÇÄŠäNAâÖÈC _IÄ¥gDÇO‰Bã±Bà_?ÄûÃlDîËCpyÒÃPÄ^F[ÄQÕÃbFÄ
„óÃ?‹xDÞ%CóhDîC|çÂòõHD7Ù6Ä09DÚÊ(DCÄß5!ÄEþ­AÑHB­ÿkDLÂ@Ž‰ÃëJRÄ—gœÃ¼ilDìÞÀÃ-ÌdÄEŽ"Ä8;7Ddž±C