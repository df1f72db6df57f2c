import json,sys,collections
def load(p):
    g=collections.defaultdict(list)
    for l in open(p):
        s=json.loads(l)
        if s.get('ok') and s.get('predicted_s'): g[(s['pipeline'],s['batch'])].append(s)
    return g
res=collections.defaultdict(lambda:[0,0])
for p in sys.argv[1:]:
    for (app,b),L in load(p).items():
        for i,a in enumerate(L):
            for c in L[i+1:]:
                r=a['ratio_to_first']/c['ratio_to_first']
                if abs(r-1)<0.05: continue
                ok=(a['predicted_s']<c['predicted_s'])==(r<1)
                res[app][0]+=ok; res[app][1]+=1
tot=[0,0]
for app,(r,n) in sorted(res.items()):
    print('%-28s %4d/%4d %.1f%%'%(app,r,n,100*r/n)); tot[0]+=r; tot[1]+=n
print('%-28s %4d/%4d %.1f%%'%('ALL',tot[0],tot[1],100*tot[0]/tot[1]))
