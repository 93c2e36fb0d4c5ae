"""Whether two sets of text files hold the same words (whitespace and form feeds ignored):
sametext.py A... -- B...  prints true or false."""
import sys

args = sys.argv[1:]
split = args.index("--")
def words(paths):
    return " ".join(" ".join(open(p, encoding="utf-8", errors="replace").read().split()) for p in paths)
print("true" if words(sorted(args[:split])) == words(sorted(args[split + 1:])) else "false")
