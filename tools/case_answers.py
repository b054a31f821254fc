"""What tools/tf_answers.py and tools/python_answers.py share: running a case's program one
top-level statement at a time, recording what each statement shows, and rewriting a cases
file with the answers (or checking it).

A bare expression statement shows its value through the caller's `show`; `print(...)` shows
{"kind": "print", "text": ...} (consecutive prints join into one, as ragtag's do); an uncaught
exception shows {"kind": "error", "error": CLASS} and ends the program; a program that does
not compile shows only {"kind": "error", "error": "SyntaxError"}.
"""
import ast
import builtins
import json
import os
import sys


def is_print(node):
    """A call of `print`, whose None result is never shown."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "print")


def error_shown(e):
    """What an uncaught exception shows: its class."""
    return {"kind": "error", "error": type(e).__name__}


def answers(program, show, names=None, error=error_shown):
    """Runs `program` statement by statement, with `names` defined; what each shows (an
    uncaught exception as `error(e)` shows it)."""
    shown = []

    def record_print(*args, sep=" ", end="\n", file=None, flush=False):
        # A file of the program's own (an open file, an object with `write`) gets the text.
        if file is not None and file is not sys.stdout and file is not sys.stderr:
            return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        text = sep.join(str(a) for a in args) + end
        if shown and shown[-1]["kind"] == "print":
            shown[-1]["text"] += text
        else:
            shown.append({"kind": "print", "text": text})

    env = dict(names or {})
    env.update({"print": record_print, "__name__": "__main__"})
    try:
        tree = ast.parse(program)
        compile(tree, "<case>", "exec")  # errors found only when compiling (`return` outside a def)
    except SyntaxError:
        return [{"kind": "error", "error": "SyntaxError"}]
    for stmt in tree.body:
        try:
            if isinstance(stmt, ast.Expr) and not is_print(stmt.value):
                code = compile(ast.Expression(stmt.value), "<case>", "eval")
                shown.append(show(eval(code, env)))
            else:
                code = compile(ast.Module([stmt], type_ignores=[]), "<case>", "exec")
                exec(code, env)
        except (Exception, SystemExit) as e:  # the case's answer, not a failure of this script
            shown.append(error(e))
            break
    return shown


def rewrite(files, check, answer, key_order, validate=None):
    """Answers every case of `files` with `answer(program)`: rewrites each file in place (one
    case per line, keys in `key_order` first), or with `check` only reports the cases whose
    stored answer differs. `validate(path, case)` may stop on a malformed case. Returns the
    exit status: 1 when checking found a difference."""
    changed = 0
    for path in files:
        cases = [json.loads(line) for line in open(path) if line.strip()]
        out = []
        for case in cases:
            if validate:
                validate(path, case)
            expected = answer(case["program"])
            if case.get("expected") != expected:
                changed += 1
                if check:
                    print("%s: %s differs" % (path, case["id"]))
            case["expected"] = expected
            keys = [k for k in key_order if k in case] + sorted(k for k in case if k not in key_order)
            out.append(json.dumps({k: case[k] for k in keys}, ensure_ascii=False))
        if not check:
            with open(path, "w") as f:
                f.write("\n".join(out) + "\n")
        print("%s: %d cases" % (os.path.relpath(path), len(cases)))
    return 1 if check and changed else 0
