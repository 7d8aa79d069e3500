
ByJ*¤Z^JbfbcmaeÉQ_…cðYx`¼aD^§`ÈÝ«bªWÞaÌb‡cPb