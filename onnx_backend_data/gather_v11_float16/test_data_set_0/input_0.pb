
BxJØ·Q`<KVHcOZÇU:cU„ ·ª·‹Z