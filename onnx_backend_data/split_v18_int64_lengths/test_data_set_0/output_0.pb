By0J ‘sDีFPZ‘ยÿ_ZนใMXRว
(3ก็ 4BN