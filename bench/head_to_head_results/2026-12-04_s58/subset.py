# Keeps the samples of pipelines whose name hashes into the given buckets of 4 (a learning curve by pipelines).
import hashlib, json, sys
buckets = {int(b) for b in sys.argv[1].split(',')}
out = open(sys.argv[2], 'w')
kept = set()
for path in sys.argv[3:]:
    for line in open(path):
        name = json.loads(line)['pipeline']
        if int(hashlib.md5(name.encode()).hexdigest(), 16) % 4 in buckets:
            out.write(line); kept.add(name)
print(sys.argv[1], len(kept), 'pipelines', file=sys.stderr)
