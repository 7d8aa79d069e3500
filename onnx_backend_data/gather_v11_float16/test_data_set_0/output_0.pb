
ByJU„ ·ª·‹ZØ·Q`<KVU„ ·ª·‹Z