import re, sys
def wrap(s, limit=110):
    out = []
    for line in s.split('\n'):
        if len(line) > limit and '  # ' in line and not line.lstrip().startswith('#') and '"' not in line.split('  # ')[-1]:
            code, com = line.rsplit('  # ', 1)
            code = code.rstrip()
            ind = re.match(r'\s*', code).group(0)
            # docments-style parameter comments stay put
            if code.rstrip().endswith(',') and ':' in code and '=' in code and 'def ' not in code and len(code) < limit:
                pass
            if len(code) <= limit and not code.endswith(','):
                out += [ind + '# ' + com.strip(), code]; continue
        out.append(line)
    return '\n'.join(out)
for p in sys.argv[1:]:
    s = open(p).read(); open(p, 'w').write(wrap(s))
