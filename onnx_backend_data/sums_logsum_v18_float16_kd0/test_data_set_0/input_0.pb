
BxJx¾Aø@CA¬Bæ;ºC°Bi@JB(8å>¡A½=,A×;Ù??CS:mCJ?@ŽCÚC–?=]8sC?¹BB¦BAà@,<@z@K;J?nCØ? :O<÷A5=ºBvCÛ@ûB¡?ÜCCY>èC3=áAŠ?ÚCŸB@