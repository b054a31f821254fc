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
        "sys" => &[
            "maxsize",
            "argv",
            "version",
            "version_info",
            "float_info",
            "platform",
            "byteorder",
            "maxunicode",
        ],
        "json" => &["JSONDecodeError", "JSONEncoder", "JSONDecoder"],
        "os" => &[
            "path", "sep", "linesep", "name", "curdir", "pardir", "environ",
        ],
        "os.path" => &["sep", "curdir", "pardir"],
        "csv" => super::csv_mod::CONSTANTS,
        "pathlib" => super::osmod::pathlib::CONSTANTS,
        "re" => &[
            "I",
            "IGNORECASE",
            "L",
            "LOCALE",
            "M",
            "MULTILINE",
            "S",
            "DOTALL",
            "U",
            "UNICODE",
            "X",
            "VERBOSE",
            "A",
            "ASCII",
            "NOFLAG",
            "error",
            "Pattern",
            "Match",
        ],
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
    "os",
    "os.path",
    "warnings",
    "re",
    "csv",
    "glob",
    "fnmatch",
    "io",
    "pathlib",
];

/// The modules ragtag's own builtins live under, which `import` finds (`paddle.fluid` too).
pub const ROOT_MODULES: &[&str] = &["tensorflow", "numpy", "paddle", "math", "sys"];

/// What a failed `import` suggests: every module ragtag provides, from [`ROOT_MODULES`] and
/// [`STDLIB_MODULES`] (tensorflow and numpy with their usual short names).
pub fn provided_modules() -> String {
    let names: Vec<String> = ROOT_MODULES
        .iter()
        .chain(STDLIB_MODULES)
        .map(|m| match *m {
            "tensorflow" => "tensorflow (tf)".to_string(),
            "numpy" => "numpy (np)".to_string(),
            "paddle" => "paddle (and paddle.fluid)".to_string(),
            other => other.to_string(),
        })
        .collect();
    format!("ragtag provides {}", names.join(", "))
}
