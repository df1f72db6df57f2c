#!/bin/bash
# prof.sh SCHEDULE_JSON THREADS RUNS: aggregate Halide profiler samples per Func over many runs
HL_JIT_TARGET=host-profile /work/main/build/bin/candor measure depthwise_separable_conv --schedule $1 --threads $2 --runs $3 2>&1 | python3 -c "
import sys,re,collections
tot=collections.Counter(); n=0
for l in sys.stdin:
    m=re.match(r'\s+(\S+):\s+([0-9.]+)ms',l)
    if m: tot[m.group(1)]+=float(m.group(2))
    if 'total time' in l: n+=1
s=sum(tot.values())
for k,v in tot.most_common(): print('%-25s %6.1f%%'%(k,100*v/s))
print('reports',n)"
