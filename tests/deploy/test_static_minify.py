"""Stripping our scripts and style sheets for production: the tokenizer's hard
cases, and every module we serve still parsing, smaller, and passing the
JavaScript unit tests when stripped."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from config.static_minify import (
    StripError,
    _main,
    js_tokens,
    strip,
    strip_css,
    strip_js,
)
from tests.conftest import skip_or_fail

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def node() -> str:
    found = shutil.which("node")
    if found is None:
        skip_or_fail("Node.js is not installed")
    return str(found)


# Every script and style sheet we serve, in any folder below ours.
SCRIPTS = sorted(
    [*REPO.glob("static/**/*.js"), *REPO.glob("surveys/kinds/*/static/**/*.js")]
)
STYLES = sorted(REPO.glob("static/**/*.css"))


@pytest.mark.parametrize(
    ("source", "stripped"),
    [
        # Comment-like text in strings, and quotes in comments.
        ('const u = "http://x.y/*z*/"; // it\'s\n', 'const u="http://x.y/*z*/";\n'),
        ("const u = 'a//b' /* \"q */ + x;\n", "const u='a//b'+x;\n"),
        ('const e = "a\\"//b";\n', 'const e="a\\"//b";\n'),
        # A regular expression holding comment openers, and division beside it.
        ("const r = /\\/*a/g; // c\n", "const r=/\\/*a/g;\n"),
        (
            "const r = /[/*]+/; const q = a / b / c;\n",
            "const r=/[/*]+/;const q=a/b/c;\n",
        ),
        ("const x = (a) / 2 /* h */ / 3;\n", "const x=(a)/2/3;\n"),
        ("return /'/.test(s); // '\n", "return/'/.test(s);\n"),
        ("x = y.return / 2 // d\n", "x=y.return/2\n"),
        ("i++ / 2 // e\n", "i++/2\n"),
        # After a condition's ``)`` a statement, so a literal, begins.
        ("if (a) /'  x/.test(b) // f\n", "if(a)/'  x/.test(b)\n"),
        ('while (f(a)) /"/g.exec(b);\n', 'while(f(a))/"/g.exec(b);\n'),
        ("x = f(a) / 2 / g(b) // h\n", "x=f(a)/2/g(b)\n"),
        # Template literals: their text untouched, their ${…} code.
        (
            'const t = `a // b  /* c */\n  d ${ "}" } e`;\n',
            'const t=`a // b  /* c */\n  d ${"}"} e`;\n',
        ),
        (
            "const t = `a${x ? `in ${x} // c` : '}'}b  c`; // end\n",
            "const t=`a${x?`in ${x} // c`:'}'}b  c`;\n",
        ),
        ("const t = `${ {a: 1}.a }`;\n", "const t=`${{a:1}.a}`;\n"),
        ("const t = `\\`${a}\\${b}`;\n", "const t=`\\`${a}\\${b}`;\n"),
        # Line breaks that automatic semicolon insertion reads are kept.
        ("function f() {\n  return\n  1;\n}\n", "function f(){\nreturn\n1;\n}\n"),
        ("a = b\n/* x\n*/++c\n", "a=b\n++c\n"),
        ("a = b /* x */ ++c\n", "a=b++c\n"),
        ("let a = b\n\n\n  /re/g.test(c)\n", "let a=b\n/re/g.test(c)\n"),
        # Modern syntax passes through.
        (
            "const g = (o) => o?.a ?? o?.[0] ?? 0;\n",
            "const g=(o)=>o?.a??o?.[0]??0;\n",
        ),
        (
            "class C {\n  #p = 1;\n  static s = 2;\n}\n",
            "class C{\n#p=1;\nstatic s=2;\n}\n",
        ),
        ("x = 1 .toString() + 1.5e-3 / 2;\n", "x=1 .toString()+1.5e-3/2;\n"),
        ('import { a } from "./a.js";\n', 'import{a}from"./a.js";\n'),
        # A space stays where tokens would join, or the page's HTML would
        # read markup: two punctuators, a number's dot, a regular
        # expression's flags, ``<!--``, ``</`` and ``-->``.
        ("x = a - -b + +c - --d;\n", "x=a- -b+ +c- --d;\n"),
        ("y = a ? .5 : 1 .toFixed(1);\n", "y=a? .5:1 .toFixed(1);\n"),
        ("r = /x/ in q; s = a / b;\n", "r=/x/ in q;s=a/b;\n"),
        (
            "t = a < !b || a < /script/.test(c) || c-- > d;\n",
            "t=a< !b||a< /script/.test(c)||c-- >d;\n",
        ),
        ("return typeof x === 'a' ? [] : {};\n", "return typeof x==='a'?[]:{};\n"),
        # A licence at the start stays; no code, no output.
        ("/*! MIT */\n// note\nx;\n", "/*! MIT */\nx;\n"),
        ("// only a comment\n\n", ""),
    ],
)
def test_it_strips_javascript_without_touching_literals(source, stripped):
    assert strip_js(source) == stripped


@pytest.mark.parametrize(
    "source",
    ['x = "open\n";', "x = `open", "x = /open\n/;", "x; /* open", "x = 'a\\'"],
)
def test_it_refuses_what_it_cannot_close(source):
    with pytest.raises(StripError, match="line 1: unclosed"):
        strip_js(source)


@pytest.mark.parametrize(
    ("source", "stripped"),
    [
        ("a  >  b ,\n c {\n  color : red ;\n}\n", "a > b,c{color : red}\n"),
        (
            'a::after { content: "/* x */  ;" } /* y */\n',
            'a::after{content: "/* x */  ;"}\n',
        ),
        ("a{background:url( a/*b.png );}\n", "a{background:url( a/*b.png )}\n"),
        ("@media (width > 1px) and (x) {}\n", "@media (width > 1px) and (x){}\n"),
        ("a :hover , .x\\, b {}\n", "a :hover,.x\\, b{}\n"),
        ("a { b: c; d: 'e;' ; }\n", "a{b: c;d: 'e;'}\n"),
        ("a { b: c\\; }\n", "a{b: c\\;}\n"),
        (".\\31  a , .\\32\n{}\n", ".\\31  a,.\\32\n{}\n"),
        ("/*! licence */\na { b: c }\n", "/*! licence */ a{b: c}\n"),
    ],
)
def test_it_strips_css_without_touching_strings_or_urls(source, stripped):
    assert strip_css(source) == stripped


def test_it_prints_a_source_files_stripped_bytes_and_hashes(tmp_path, capsys):
    source = tmp_path / "a.js"
    source.write_text("// c\n  x = 1;\n")
    _main([str(source)])
    assert capsys.readouterr().out == "x=1;\n"
    _main([str(source), "--sha256"])
    sha256 = capsys.readouterr().out.strip()
    _main([str(source), "--sri"])
    assert len(sha256) == 64
    assert capsys.readouterr().out.startswith("sha256-")


@pytest.mark.parametrize("path", STYLES, ids=lambda path: path.name)
def test_every_style_sheet_is_smaller_stripped(path):
    source = path.read_text()
    stripped = strip(path.name, source)
    assert len(stripped) < len(source)
    assert "/*" not in stripped.replace('"/*', "")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: str(path.relative_to(REPO)))
def test_every_module_we_serve_still_parses_stripped_and_is_smaller(
    tmp_path, path, node
):
    source = path.read_text()
    stripped = strip(path.name, source)
    assert len(stripped.encode()) < len(source.encode())
    copy = tmp_path / "module.mjs"
    copy.write_text(stripped)
    checked = subprocess.run(
        [node, "--check", str(copy)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda path: str(path.relative_to(REPO)))
def test_every_module_we_serve_reads_as_the_same_tokens_stripped(path):
    """Read again, the stripped text gives the source's tokens one for one:
    no space or line break that went had kept two tokens apart. (Where the
    tokenizer could misread a file, the parse and unit-test checks here run
    it in Node.js.)"""
    source = path.read_text()
    stripped = strip(path.name, source)
    assert js_tokens(stripped) == js_tokens(source)
    assert strip(path.name, stripped) == stripped


def test_the_javascript_unit_tests_pass_on_the_stripped_modules(tmp_path, node):
    """The tests of tests/js import the modules by relative path: run them in
    a copy of the tree whose modules are the stripped ones, so a stripping
    bug that still parses but behaves differently fails here."""
    shutil.copytree(REPO / "tests/js", tmp_path / "tests/js")
    (tmp_path / "tests/fixtures").symlink_to(REPO / "tests/fixtures")
    for path in SCRIPTS:
        copy = tmp_path / path.relative_to(REPO)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(strip(path.name, path.read_text()))
    run = subprocess.run(
        [node, "--test", str(tmp_path / "tests/js")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
    assert "# pass 0" not in run.stdout
