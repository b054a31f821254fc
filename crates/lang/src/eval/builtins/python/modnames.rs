//! The names the standard modules hold besides their functions.

/// The names of the standard modules' values that are not functions (the ones
/// `module_attr` finds through each module's `constant`), for `from module import *` and
/// `dir(module)`.
pub fn constant_names(module: &str) -> &'static [&'static str] {
    match module {
        "string" => &[
            "ascii_letters",
            "ascii_lowercase",
            "ascii_uppercase",
            "digits",
            "hexdigits",
            "octdigits",
            "punctuation",
            "whitespace",
            "printable",
            "Template",
        ],
        "sys" => &["maxsize", "argv", "version", "version_info", "float_info"],
        "json" => &["JSONDecodeError", "JSONEncoder", "JSONDecoder"],
        "collections" => &["ChainMap", "UserDict", "UserList", "UserString"],
        "dataclasses" => &[
            "MISSING",
            "FrozenInstanceError",
            "Field",
            "InitVar",
            "KW_ONLY",
        ],
        "typing" => &[
            "TYPE_CHECKING",
            "Generic",
            "Protocol",
            "Any",
            "Optional",
            "Union",
            "ClassVar",
            "Final",
            "Literal",
            "List",
            "Dict",
            "Set",
            "FrozenSet",
            "Tuple",
            "Type",
            "DefaultDict",
            "Deque",
            "Callable",
            "Iterable",
            "Iterator",
            "Sequence",
            "Mapping",
        ],
        _ => &[],
    }
}

/// The standard modules `import` finds besides ragtag's roots (their builtins are named
/// under them: `itertools.count`).
pub const STDLIB_MODULES: &[&str] = &[
    "itertools",
    "functools",
    "operator",
    "random",
    "string",
    "time",
    "json",
    "collections",
    "copy",
    "dataclasses",
    "typing",
];
