import sys,re
# basic blocks by label; report the blocks with the most vmaxps and their memory traffic
for fn in sys.argv[1:]:
    blocks=[];cur=None
    for l in open(fn):
        if re.match(r'^\.?[A-Za-z0-9_$.]+:', l):
            cur=[l.strip(),0,0,0,0,0,0]; blocks.append(cur); continue
        if cur is None: continue
        if 'vmaxps' in l: cur[1]+=1
        if 'Reload' in l: cur[2]+=1
        if 'Spill' in l: cur[3]+=1
        if re.search(r'vmov\w*\s+-?\d*\(%r(?!sp)',l) or re.search(r'vmaxps\s+-?\d*\(',l): cur[4]+=1
        if l.strip() and not l.strip().startswith(('.','#')): cur[5]+=1
        if re.search(r'\b(lea|imul|add|mov)q?\b.*%r',l) and 'zmm' not in l: cur[6]+=1
    blocks.sort(key=lambda b:-b[1])
    print(fn)
    for b in blocks[:4]: print('  %-12s vmaxps %4d reloads %3d spills %3d memloads %4d insts %5d scalar %4d'%tuple(b))
