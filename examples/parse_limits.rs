//! How long the parser takes on adversarial inputs: deep nesting of every kind, long
//! argument lists and operator chains, large data literals, many lines, deep indentation,
//! unterminated strings and brackets, random bytes and odd Unicode — each at 10 KB, 100 KB
//! and 1 MB. Parsing must stay linear: every input parses or fails well under a second.
//!
//! Run with `cargo run --release --example parse_limits` (all cases), or pass case names
//! and/or sizes in bytes to run some: `… --example parse_limits -- unclosed_brackets 1000000`.
//! Each line shows the time of `parse` and of `completeness` (the REPL's check) and how the
//! parse ended.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use std::time::Instant;

use ragtag::syntax::{completeness, parse};

/// Repeats `unit` until the text is about `size` bytes long.
fn fill(unit: &str, size: usize) -> String {
    unit.repeat((size / unit.len()).max(1))
}

/// `prefix`, then `unit` repeated, then `suffix`, about `size` bytes in all.
fn wrap(prefix: &str, unit: &str, suffix: &str, size: usize) -> String {
    let n = size.saturating_sub(prefix.len() + suffix.len()) / unit.len();
    format!("{prefix}{}{suffix}", unit.repeat(n.max(1)))
}

/// Balanced nesting: `open` repeated, `middle`, `close` repeated.
fn nest(open: &str, middle: &str, close: &str, size: usize) -> String {
    let n = (size / (open.len() + close.len())).max(1);
    format!("{}{middle}{}", open.repeat(n), close.repeat(n))
}

/// A deterministic pseudo-random generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random printable ASCII, newlines and tabs.
fn random_ascii(size: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..size)
        .map(|_| match rng.next() % 100 {
            0..=4 => '\n',
            5 => '\t',
            r => (b' ' + (r as u8 * 7 + (rng.next() % 95) as u8) % 95) as char,
        })
        .collect()
}

/// Random tokens of the language, in random order.
fn random_tokens(size: usize) -> String {
    const TOKENS: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "x",
        "1",
        "2.5",
        "'s'",
        "\"t\"",
        "+",
        "-",
        "*",
        "**",
        "not",
        "lambda",
        "if",
        "else",
        "for",
        "in",
        "=",
        "==",
        ".",
        "\n",
        " ",
        "  ",
        "#",
        "\\\n",
        "'''",
        "def",
        "f(",
        "tf.ragged.constant(",
        ";",
        "@",
        "~",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut out = String::new();
    while out.len() < size {
        out.push_str(TOKENS[(rng.next() % TOKENS.len() as u64) as usize]);
        out.push(' ');
    }
    out
}

/// Random Unicode scalar values, mostly outside ASCII.
fn random_unicode(size: usize) -> String {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut out = String::new();
    while out.len() < size {
        let c = match rng.next() % 4 {
            0 => char::from_u32((rng.next() % 0x80) as u32),
            1 => char::from_u32(0x80 + (rng.next() % 0x780) as u32),
            2 => char::from_u32(0x800 + (rng.next() % 0xF800) as u32),
            _ => char::from_u32(0x10000 + (rng.next() % 0x100000) as u32),
        };
        out.extend(c);
    }
    out
}

/// Nested `if` blocks, each indented one space deeper, up to about `size` bytes.
fn deep_indent(size: usize) -> String {
    let mut out = String::new();
    let mut depth = 0;
    while out.len() < size {
        out.push_str(&" ".repeat(depth));
        out.push_str("if x:\n");
        depth += 1;
    }
    out.push_str(&" ".repeat(depth));
    out.push_str("pass\n");
    out
}

/// A valid program of many statements, cut in the middle of a string and of a bracket.
fn truncated_program(size: usize) -> String {
    let line =
        "rt = tf.ragged.constant([[1, 2], [3]], dtype=tf.int64)  # c\nprint(rt[:, -2:], 'a b')\n";
    let mut s = fill(line, size);
    s.push_str("x = f([1, 'abc");
    s
}

type Case = (&'static str, fn(usize) -> String);

const CASES: &[Case] = &[
    ("unclosed_brackets", |n| "[".repeat(n)),
    ("unclosed_parens", |n| "(".repeat(n)),
    ("unclosed_braces", |n| "{".repeat(n)),
    ("unclosed_mixed", |n| fill("([{", n)),
    ("nested_brackets", |n| nest("[", "1", "]", n)),
    ("nested_parens", |n| nest("(", "1", ")", n)),
    ("nested_braces_dict", |n| nest("{1: ", "1", "}", n)),
    ("nested_calls", |n| nest("f(", "1", ")", n)),
    ("nested_subscripts", |n| nest("x[", "0", "]", n)),
    ("nested_list_names", |n| nest("[x, ", "1", "]", n)),
    ("nested_comprehensions", |n| {
        nest("[x for x in ", "y", "]", n)
    }),
    ("nested_strings_in_brackets", |n| {
        nest("['a', ", "'b'", "]", n)
    }),
    ("unary_minus", |n| wrap("x = ", "-", "1", n)),
    ("unary_mixed", |n| wrap("x = ", "-+~", "1", n)),
    ("not_chain", |n| wrap("x = ", "not ", "y", n)),
    ("lambda_chain", |n| wrap("f = ", "lambda: ", "0", n)),
    ("lambda_args_chain", |n| {
        wrap("f = ", "lambda a, b=1: ", "a", n)
    }),
    ("ternary_chain", |n| wrap("x = ", "a if b else ", "c", n)),
    ("ternary_nested_cond", |n| {
        nest("(a if ", "b", " else c)", n)
    }),
    ("attribute_chain", |n| wrap("x = a", ".b", "", n)),
    ("call_chain", |n| wrap("x = f", "()", "", n)),
    ("subscript_chain", |n| wrap("x = a", "[0]", "", n)),
    ("power_chain", |n| wrap("x = 2", " ** 2", "", n)),
    ("plus_chain", |n| wrap("x = 1", "+1", "", n)),
    ("comparison_chain", |n| wrap("x = 1", " < 2", "", n)),
    ("and_chain", |n| wrap("x = a", " and b", "", n)),
    ("print_args", |n| wrap("print(1", ", 1", ")", n)),
    ("print_args_unclosed", |n| wrap("print(1", ", 1", "", n)),
    ("keyword_args", |n| {
        let mut s = String::from("f(");
        let mut k = 0;
        while s.len() < n {
            s.push_str(&format!("a{k}=1, "));
            k += 1;
        }
        s.push(')');
        s
    }),
    ("def_params", |n| {
        let mut s = String::from("def f(");
        let mut k = 0;
        while s.len() < n {
            s.push_str(&format!("a{k}, "));
            k += 1;
        }
        s.push_str("):\n  pass\n");
        s
    }),
    ("tuple_items", |n| wrap("x = 1", ", 1", "", n)),
    ("assign_chain", |n| wrap("", "a = ", "1", n)),
    ("int_list", |n| wrap("x = [1", ", 123", "]", n)),
    ("float_list", |n| wrap("x = [1.5", ", -2.25e3", "]", n)),
    ("string_list", |n| wrap("x = ['a'", ", 'abc'", "]", n)),
    ("nested_int_list", |n| {
        wrap("x = [[1]", ", [1, 2, 3]", "]", n)
    }),
    ("list_with_names", |n| wrap("x = [y", ", 1", "]", n)),
    ("int_list_unclosed", |n| wrap("x = [1", ", 123", "", n)),
    ("int_list_bad_end", |n| wrap("x = [1", ", 123", ", ]]", n)),
    ("dict_items", |n| wrap("x = {1: 1", ", 1: 1", "}", n)),
    ("long_string", |n| wrap("x = '", "a", "'", n)),
    ("long_string_unterminated", |n| wrap("x = '", "a", "", n)),
    ("long_triple_unterminated", |n| {
        wrap("x = '''", "a\n", "", n)
    }),
    ("many_strings", |n| wrap("x = 'a'", " 'b'", "", n)),
    ("many_lines", |n| fill("x = 1\n", n)),
    ("many_blank_lines", |n| wrap("x = 1", "\n", "y", n)),
    ("many_comments", |n| fill("# a comment line\n", n)),
    ("many_continuations", |n| wrap("x = 1", " + \\\n 1", "", n)),
    ("continuations_then_spaces", |n| {
        format!("{}{}", "\\\n".repeat(n / 4), " ".repeat(n / 2))
    }),
    ("many_semicolons", |n| fill("x = 1; ", n)),
    ("deep_indent", deep_indent),
    ("many_defs", |n| fill("def f(x):\n    return x\n", n)),
    ("if_elif_chain", |n| {
        wrap("if x:\n  pass\n", "elif x:\n  pass\n", "", n)
    }),
    ("truncated_program", truncated_program),
    ("long_name", |n| wrap("x = ", "a", "", n)),
    ("unicode_name", |n| wrap("x = ", "é", "", n)),
    ("unicode_string", |n| wrap("x = '", "😀", "'", n)),
    ("trailing_spaces", |n| wrap("x = 1", " ", "", n)),
    ("spaces_then_error", |n| wrap("x = 1", " ", "$", n)),
    ("random_ascii", random_ascii),
    ("random_tokens", random_tokens),
    ("random_unicode", random_unicode),
];

/// CPU time of this process (all threads) in milliseconds, from /proc/self/stat (Linux;
/// `None` elsewhere). The machine may be busy: CPU time shows the parser's own cost. Linux
/// reports it in clock ticks of 1/100 s (USER_HZ), so it is only good to 10 ms.
fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}

/// Wall-clock and CPU milliseconds of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let cpu = cpu_ms();
    let start = Instant::now();
    let out = f();
    let wall = start.elapsed().as_secs_f64() * 1e3;
    let cpu = cpu.zip(cpu_ms()).map(|(a, b)| b - a);
    (out, wall, cpu)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000, 1_000_000];
    }
    let names: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>9}  outcome",
        "case", "bytes", "parse ms", "cpu ms", "compl ms", "cpu ms"
    );
    let mut worst = 0.0f64;
    let mut worst_cpu = 0.0f64;
    let show = |cpu: Option<f64>| cpu.map_or("-".to_owned(), |c| format!("{c:.0}"));
    for (name, make) in CASES {
        if !names.is_empty() && !names.contains(name) {
            continue;
        }
        for &size in &sizes {
            let src = make(size);
            let (result, parse_ms, parse_cpu) = timed(|| parse(&src));
            let (complete, complete_ms, complete_cpu) = timed(|| completeness(&src));
            worst = worst.max(parse_ms).max(complete_ms);
            worst_cpu = worst_cpu
                .max(parse_cpu.unwrap_or(0.0))
                .max(complete_cpu.unwrap_or(0.0));
            let outcome = match &result {
                Ok(p) => format!("ok, {} statements, {complete:?}", p.body.len()),
                Err(e) => {
                    let mut m = e.message.clone();
                    if m.len() > 60 {
                        let mut cut = 60;
                        while !m.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        m.truncate(cut);
                        m.push('…');
                    }
                    format!("{m:?} at {}..{}, {complete:?}", e.span.start, e.span.end)
                }
            };
            println!(
                "{name:<28} {:>9} {parse_ms:>9.1} {:>9} {complete_ms:>9.1} {:>9}  {outcome}",
                src.len(),
                show(parse_cpu),
                show(complete_cpu),
            );
        }
    }
    println!("slowest: {worst:.1} ms wall, {worst_cpu:.0} ms cpu");
}
