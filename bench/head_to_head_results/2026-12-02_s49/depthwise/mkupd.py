import json,copy,sys
# mkupd.py BASE OUT NAME:c,x,y ...: variants of BASE's pointwise.update register tile (c lanes, x, y), all unrolled
A=json.load(open(sys.argv[1])); out=open(sys.argv[2],'w'); names=open(sys.argv[2]+'.names','w')
for spec in sys.argv[3:]:
    name,dims=spec.split(':'); c,x,y=map(int,dims.split(','))
    S=copy.deepcopy(A); st=S['funcs']['pointwise']['stages'][1]
    splits=[{"factor":c,"inner":"c_i","outer":"c_o","tail":"GuardWithIf","var":"c"}]
    ann={}; inner=[]
    if c>16:
        splits.append({"factor":16,"inner":"c_i_i","outer":"c_i_o","tail":"GuardWithIf","var":"c_i"}); ann={"c_i_i":"vectorized","c_i_o":"unrolled"}; inner=["c_i_i","c_i_o"]
    else: ann={"c_i":"vectorized"}; inner=["c_i"]
    outer=["c_o"]
    for v,f in (("x",x),("y",y)):
        if f>1:
            splits.append({"factor":f,"inner":v+"_i","outer":v+"_o","tail":"GuardWithIf","var":v}); ann[v+"_i"]="unrolled"; inner.append(v+"_i"); outer.append(v+"_o")
        else: outer.append(v)
    st['splits']=splits; st['annotations']=ann; st['order']=inner+["ci_x"]+outer
    out.write(json.dumps(S)+'\n'); names.write(name+'\n')
