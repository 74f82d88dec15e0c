#!/usr/bin/env python3
"""The APIs.guru draw (SAMPLING-apisguru.md): sorted providers of v2/providers.json, random.seed(58), sample 40."""
import json, random
p = sorted(set(json.load(open('providers.json'))['data']))
random.seed(58)
print("\n".join(random.sample(p, 40)))
