#!/usr/bin/env python3
"""Function lengths of C++/CUDA sources (.cpp .hpp .cu .cuh): reports every function whose body
is longer than a limit (the project's: none over 150 lines in app/, lib/, kernels/, and the driver's
run_simulation under 80).

  python3 tools/function_lengths.py --max 150 --limit run_simulation=80 app lib kernels
  python3 tools/function_lengths.py --all lib/io     # every function, longest first

A function's length is its body's: the lines from its opening brace to its closing brace, both
included (blank and comment lines count: they are part of what a reader scrolls through).
Lambdas, local classes and control-flow blocks inside a function count toward it. Namespace,
class, struct, union and enum bodies are scopes, not functions; member functions defined in a
class are reported as Class::name.

How: comments, string and character literals and preprocessor lines are blanked (newlines
kept), then the braces are tracked. At namespace or class scope, the text since the last ';',
'{' or '}' (the "head") decides what a '{' opens: a namespace or class scope, a function (a
parameter list followed only by qualifiers, a trailing return type, a requires-clause or a
constructor's initialiser list), or something else (an initialiser, an enum). It is a
heuristic, not a parser: macros that hide braces or parentheses can fool it.

Exit status: 1 when a function is over its limit, 2 on a usage error, else 0.
"""
import argparse
import bisect
import os
import re
import sys

EXTENSIONS = (".cpp", ".hpp", ".cu", ".cuh")


# --------------------------------------------------------------------------------------------
# blanking comments, literals and preprocessor lines

def _blank(text):
    """The text with every character but newlines replaced by a space."""
    return re.sub(r"[^\n]", " ", text)


RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\\s]{0,16})\(')


def strip_source(src):
    """src with comments, the insides of string and character literals and preprocessor lines
    blanked; line numbers and the remaining code keep their places."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            end = src.find("\n", i)
            end = n if end < 0 else end
            out.append(_blank(src[i:end]))
            i = end
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(_blank(src[i:end]))
            i = end
        elif c == "R" or (c in "uUL" and RAW_STRING.match(src, i)):
            m = RAW_STRING.match(src, i)
            if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
                close = ")" + m.group(1) + '"'
                end = src.find(close, m.end())
                end = n if end < 0 else end + len(close)
                out.append('""' + _blank(src[i + 2:end]))
                i = end
            else:
                out.append(c)
                i += 1
        elif c == '"' or (c == "'" and not _digit_separator(src, i)):
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            out.append(c + _blank(src[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = "".join(out).split("\n")
    continued = False
    for k, line in enumerate(lines):  # preprocessor directives, with their continuation lines
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


def _digit_separator(src, i):
    """Whether the quote at i separates digits (1'000'000) rather than opening a character."""
    j = i
    while j > 0 and (src[j - 1].isalnum() or src[j - 1] in "_'."):
        j -= 1
    return j < i and src[j].isdigit()


# --------------------------------------------------------------------------------------------
# reading a declaration head

def _matching(text, i, open_, close):
    """Index just past the bracket that closes the one at text[i] (len(text) if none)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _remove_call(text, word):
    """text without word(...) groups (attributes, alignas, __launch_bounds__ and the like)."""
    while True:
        m = re.search(r"\b" + word + r"\s*\(", text)
        if not m:
            return text
        text = text[:m.start()] + " " + text[_matching(text, m.end() - 1, "(", ")"):]


def _remove_template_prefix(head):
    """head without its leading template <...> parameter lists."""
    while True:
        m = re.match(r"\s*template\s*<", head)
        if not m:
            return head
        head = head[_matching(head, m.end() - 1, "<", ">"):]


def _collapse_braces(text):
    """text with every balanced {...} group reduced to {} (initialisers seen so far)."""
    out, depth = [], 0
    for c in text:
        if c == "{":
            if depth == 0:
                out.append("{}")
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def clean_head(head):
    """head without what does not decide what its '{' opens: earlier initialisers' contents,
    attributes, access specifiers and template parameter lists."""
    head = _collapse_braces(head)
    head = re.sub(r"\[\[.*?\]\]", " ", head, flags=re.S)
    for word in ("__attribute__", "__declspec", "alignas", "__launch_bounds__"):
        head = _remove_call(head, word)
    head = re.sub(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+", "", head)
    return _remove_template_prefix(head).strip()


def _paren_depth(text):
    """Open '(' minus closed ')' in text."""
    depth = 0
    for c in text:
        depth += (c == "(") - (c == ")")
    return depth


def _top_level(text):
    """(index, char) of the characters of text outside (), [] and {}."""
    depth = 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            yield i, c


def _top_level_assignment(head):
    """Index of a '=' at the top level of head that is an initialiser (not ==, <=, operator=),
    or -1."""
    for i, c in _top_level(head):
        if c != "=":
            continue
        before, after = head[:i].rstrip(), head[i + 1:i + 2]
        if after == "=" or (before and before[-1] in "=<>!+-*/%&|^"):
            continue
        if re.search(r"\boperator\s*$", before):
            continue
        return i
    return -1


QUALIFIER = re.compile(r"\s*(?:(const|volatile|noexcept|override|final|mutable|throw)\b|&&|&)")


def _qualifier_tail(tail):
    """What follows a parameter list when it is one: 'body' (nothing, or only qualifiers, a
    trailing return type or a requires-clause), 'init' (a constructor's initialiser list), else
    None (the parentheses were something else: decltype(...), a macro's arguments)."""
    i = 0
    while True:
        m = QUALIFIER.match(tail, i)
        if not m:
            break
        i = m.end()
        if m.group(1) in ("noexcept", "throw"):
            rest = tail[i:].lstrip()
            if rest.startswith("("):
                i = _matching(tail, len(tail) - len(rest), "(", ")")
    rest = tail[i:].strip()
    if not rest or rest.startswith("->") or re.match(r"requires\b", rest):
        return "body"
    if rest.startswith(":") and not rest.startswith("::"):
        return "init"
    return None


# The name before a parameter list: Class::operator() / operator== / operator bool, or a
# possibly qualified identifier (Foo<T>::bar, Foo::~Foo).
OPERATOR_NAME = re.compile(r"(?:[A-Za-z_]\w*\s*::\s*)*\boperator\b\s*"
                           r"(?:\(\s*\)|\[\s*\]|[^\w\s()]+|[\w\s:<>*&]+)$")
IDENTIFIER = r"~?[A-Za-z_]\w*(?:\s*<[^()]*>)?"
NAME = re.compile(r"(" + IDENTIFIER + r"(?:\s*::\s*" + IDENTIFIER + r")*)\s*$")


def function_name(head):
    """(name, kind) for a '{' that follows head at namespace or class scope: kind is 'body' (a
    function body), 'init' (a brace initialiser inside a constructor's initialiser list) or
    None (not a function)."""
    for m in re.finditer(r"\(", head):
        start = m.start()
        if _paren_depth(head[:start]) != 0:
            continue
        end = _matching(head, start, "(", ")")
        tail = _qualifier_tail(head[end:])
        if tail is None:
            continue
        before = head[:start].rstrip()
        op = OPERATOR_NAME.search(before)
        if op:
            name = re.sub(r"\s*(::|\W)\s*", r"\1", " ".join(op.group(0).split()))
        else:
            nm = NAME.search(before)
            if not nm or nm.group(1) in ("decltype", "requires", "sizeof", "noexcept"):
                continue
            name = re.sub(r"\s+", "", nm.group(1))
            if re.fullmatch(r"[A-Z][A-Z0-9_]+", name):  # a macro such as TEST(Suite, Name)
                name += "(" + " ".join(head[start + 1:end - 1].split()) + ")"
        if tail == "init" and re.search(r"[\w>]\s*$", head):
            return name, "init"
        return name, "body"
    return None, None


def classify(head):
    """What a '{' after head opens at namespace or class scope: ('scope', name) for a namespace
    or an extern "C" block (name None) or a class (its name); ('function', name); ('inline', None)
    for a brace inside an unfinished declaration (a default argument, an initialiser list
    entry); ('other', None) for initialisers, enums and anything else."""
    head = clean_head(head)
    if _paren_depth(head) > 0:
        return "inline", None
    if re.search(r"\bnamespace\b", head) or re.fullmatch(r'extern\s*"[^"]*"', head):
        return "scope", None
    assign = _top_level_assignment(head)
    if assign >= 0:
        var = re.search(r"([A-Za-z_]\w*)\s*$", head[:assign])
        if head[assign + 1:].lstrip().startswith("[") and var:  # a lambda at namespace scope
            return "function", var.group(1)
        return "other", None
    key = None
    for m in re.finditer(r"\b(class|struct|union|enum)\b", head):
        if _paren_depth(head[:m.start()]) == 0:
            key = m
    if key and "(" not in head[key.end():]:
        if key.group(1) == "enum":
            return "other", None
        return "scope", _class_name(head[key.end():])
    name, kind = function_name(head)
    if kind == "body":
        return "function", name
    if kind == "init":
        return "inline", None
    return "other", None


def _class_name(rest):
    """The name in 'Name final : Base' (the text after class/struct/union)."""
    while re.search(r"<[^<>]*>", rest):  # template arguments: StreamTables<Real>::Streamer
        rest = re.sub(r"<[^<>]*>", "", rest)
    rest = re.split(r"(?<!:):(?!:)", rest)[0]
    words = [w for w in re.findall(r"[A-Za-z_][\w:]*", rest) if w != "final"]
    return words[-1] if words else ""


# --------------------------------------------------------------------------------------------
# the scan

class Function:
    def __init__(self, name, path, first, last):
        self.name, self.path, self.first, self.last = name, path, first, last

    @property
    def lines(self):
        return self.last - self.first + 1

    def __repr__(self):
        return f"{self.path}:{self.first}: {self.name} ({self.lines} lines)"


def scan_source(src, path="<source>"):
    """Every function defined in src (C++ or CUDA text), in order of their opening braces."""
    text = strip_source(src)
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line(i):
        return bisect.bisect_right(line_starts, i)

    functions = []
    scopes = []          # class names (None: namespace) of the open scopes
    head_start = 0       # where the current head began
    inner = None         # open function or other block: [kind, name, open index, depth]
    for i, c in enumerate(text):
        if inner is not None:
            if c == "{":
                inner[3] += 1
            elif c == "}":
                inner[3] -= 1
                if inner[3] == 0:
                    kind, name, start, _ = inner
                    if kind == "function":
                        functions.append(Function(name, path, line(start), line(i)))
                    if kind != "inline":
                        head_start = i + 1
                    inner = None
            continue
        if c == "{":
            kind, name = classify(text[head_start:i])
            if kind == "scope":
                scopes.append(name)
                head_start = i + 1
            else:
                if kind == "function":
                    name = "::".join([s for s in scopes if s] + [name])
                inner = [kind, name, i, 1]
        elif c == "}":
            if scopes:
                scopes.pop()
            head_start = i + 1
        elif c == ";":
            head_start = i + 1
    return functions


def source_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(EXTENSIONS):
                    yield os.path.join(root, f)


def parse_limit(text):
    name, sep, lines = text.rpartition("=")
    if not sep or not name or not lines.isdigit():
        raise argparse.ArgumentTypeError(f"expected NAME=LINES, got '{text}'")
    return name, int(lines)


def limit_for(function, default, limits):
    """The limit of function: a --limit whose NAME is its name or the end of its qualified name
    (run_simulation matches bolt::Driver::run_simulation), else the default."""
    for name, lines in limits:
        if function.name == name or function.name.endswith("::" + name):
            return lines
    return default


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="files or folders (searched for .cpp .hpp .cu .cuh)")
    ap.add_argument("--max", type=int, default=150,
                    help="longest body allowed, in lines (default %(default)s)")
    ap.add_argument("--limit", type=parse_limit, action="append", default=[], metavar="NAME=LINES",
                    help="a tighter or looser limit for the functions of that name (repeatable)")
    ap.add_argument("--all", action="store_true",
                    help="list every function, not only those over their limit")
    args = ap.parse_args(argv)
    for p in args.paths:  # a moved folder must not pass the check by having nothing to scan
        if not os.path.exists(p):
            ap.error(f"no such file or folder: {p}")

    found, over = [], []
    for path in source_files(args.paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            functions = scan_source(f.read(), path)
        found += [(fn, limit_for(fn, args.max, args.limit)) for fn in functions]
    over = [(fn, limit) for fn, limit in found if fn.lines > limit]
    shown = found if args.all else over
    for fn, limit in sorted(shown, key=lambda p: (-p[0].lines, p[0].path, p[0].first)):
        mark = " OVER" if fn.lines > limit else ""
        print(f"{fn.path}:{fn.first}: {fn.name}: {fn.lines} lines (limit {limit}){mark}")
    print(f"{len(over)} of {len(found)} functions over their limit", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
