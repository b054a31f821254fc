//! Pictures (`draw(x)`, `--format svg`): one golden picture per kind under tests/golden/svg/,
//! each checked to be well-formed XML by a parser and compared byte for byte with its insta
//! snapshot (a binary snapshot, so the picture is a file a browser opens: NAME.snap.svg,
//! beside its metadata NAME.snap; `cargo insta review` shows a changed one), plus the limits
//! every picture keeps: real text, light and dark colours, a notebook's width, and a summary
//! of a million rows under 100 KB.

use std::path::PathBuf;

use ragtag::eval::Sink;
use ragtag::session::Session;
use ragtag::value::Value;

/// The golden pictures: a name and a program whose last statement draws.
const CASES: &[(&str, &str)] = &[
    (
        "ragged",
        "draw(tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []]))",
    ),
    (
        "ragged_nested",
        "draw(tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]]))",
    ),
    (
        "ragged_uniform",
        "draw(tf.RaggedTensor.from_uniform_row_length(\
         tf.ragged.constant([[1, 2], [3], [4], [], [5, 6], [7]]), 2))",
    ),
    (
        "ragged_inner_shape",
        "draw(tf.ragged.constant([[[1, 2], [3, 4]], [], [[5, 6]]], ragged_rank=1))",
    ),
    (
        "sparse",
        "draw(tf.SparseTensor(indices=[[0, 0], [1, 2], [2, 3]], values=[1, 2, 3], dense_shape=[3, 4]))",
    ),
    (
        "sparse_large",
        "draw(tf.SparseTensor(indices=[[0, 0], [500, 7], [999, 999]], values=[1.5, 2.5, 3.5], \
         dense_shape=[1000, 1000]))",
    ),
    (
        "lod",
        "draw(fluid.create_lod_tensor(np.array([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]), \
         [[2, 1], [1, 2, 2]], fluid.CPUPlace()))",
    ),
    (
        "strings",
        "draw(tf.constant(['So', 'long', 'héllo 👋', '']))",
    ),
    ("dense", "draw(tf.constant([[1.5, 2.0, 3.25], [4.0, 5.0, 6.0]]))"),
    (
        "ragged_vs_sparse",
        "draw(tf.ragged.constant([[1, 2], [3]]), tf.sparse.from_dense([[1, 2], [3, 0]]))",
    ),
    (
        "ragged_encodings",
        "draw(tf.RaggedTensor.from_uniform_row_length(\
         tf.ragged.constant([[1, 2], [3], [4], [], [5, 6], [7]]), 2), encodings=True)",
    ),
    (
        "summary",
        "draw(tf.ragged.range(tf.range(1000) % 7))",
    ),
];

/// Collects the pictures a program draws.
#[derive(Default)]
struct Pictures {
    svg: Vec<String>,
    text: Vec<String>,
}

impl Sink for Pictures {
    fn display(&mut self, _: &Value) {}
    fn print(&mut self, _: &str) {}
    fn picture(&mut self, svg: &str, text: &str) {
        self.svg.push(svg.to_string());
        self.text.push(text.to_string());
    }
}

/// The pictures `src` draws.
#[track_caller]
fn pictures(src: &str) -> Pictures {
    let mut sink = Pictures::default();
    let mut session = Session::new();
    if let Err(e) = session.execute(src, &mut sink) {
        panic!("{src}: {}", e.message);
    }
    sink
}

/// The one picture `src` draws.
#[track_caller]
fn picture(src: &str) -> String {
    let mut p = pictures(src);
    assert_eq!(p.svg.len(), 1, "{src}");
    p.svg.remove(0)
}

/// Parses `svg` and checks what every picture keeps; returns its shown width.
#[track_caller]
fn check_picture(name: &str, svg: &str) -> f64 {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("{name}: not well-formed XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{name}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.attribute("viewBox").is_some(), "{name}: no viewBox");
    let width: f64 = root.attribute("width").unwrap().parse().unwrap();
    assert!(
        width <= 800.0,
        "{name}: {width} px is wider than a notebook"
    );
    let names: Vec<&str> = doc.descendants().map(|n| n.tag_name().name()).collect();
    assert!(names.contains(&"text"), "{name}: no real text");
    for embedded in ["image", "font", "font-face", "foreignObject"] {
        assert!(!names.contains(&embedded), "{name}: embeds <{embedded}>");
    }
    let style = doc
        .descendants()
        .find(|n| n.has_tag_name("style"))
        .and_then(|n| n.text())
        .unwrap_or_default();
    assert!(
        style.contains("prefers-color-scheme: dark"),
        "{name}: no dark colours"
    );
    assert!(
        style.contains("var(--"),
        "{name}: colours are not CSS variables"
    );
    width
}

/// Where the golden pictures are: insta's NAME.snap (metadata) and NAME.snap.svg (picture).
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/svg")
}

/// The case a file of [`golden_dir`] belongs to: NAME of NAME.snap and NAME.snap.svg. A
/// change waiting for review (NAME.snap.new, NAME.snap.new.svg) belongs to none.
fn golden_name(file: &str) -> Option<&str> {
    file.strip_suffix(".snap.svg")
        .or_else(|| file.strip_suffix(".snap"))
}

#[test]
fn golden_pictures_match_and_are_well_formed() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(golden_dir());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for (name, src) in CASES {
            let svg = picture(src);
            check_picture(name, &svg);
            insta::assert_binary_snapshot!(&format!("{name}.svg"), svg.into_bytes());
        }
    });
}

#[test]
fn every_golden_file_is_a_case_and_well_formed() {
    let mut pictures = 0;
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.contains(".snap.new") {
            continue;
        }
        let name =
            golden_name(&file).unwrap_or_else(|| panic!("{} is no snapshot", path.display()));
        assert!(
            CASES.iter().any(|(n, _)| *n == name),
            "{} is no case of tests/svg.rs",
            path.display()
        );
        if file.ends_with(".svg") {
            check_picture(name, &std::fs::read_to_string(&path).unwrap());
            pictures += 1;
        }
    }
    assert_eq!(pictures, CASES.len(), "a picture for each case");
}

#[test]
fn a_million_rows_draw_a_summary_under_100_kb() {
    let svg = picture("draw(tf.ragged.range(tf.range(1000000) % 11))");
    check_picture("million", &svg);
    assert!(svg.len() < 100_000, "{} bytes", svg.len());
    assert!(svg.contains("histogram of row lengths"));
    assert!(svg.contains("row 999999"), "the tail rows are shown");
    assert!(svg.contains("1,000,000 rows"));
}

#[test]
fn empty_rows_are_drawn_and_splits_labelled() {
    let svg = picture("draw(tf.ragged.constant([[1], [], [2, 3]]))");
    assert_eq!(svg.matches(r#"class="empty""#).count(), 1, "{svg}");
    // One marker per row_splits entry: 0, 1, 1, 3.
    assert_eq!(svg.matches(r#"class="split""#).count(), 4, "{svg}");
    for split in [">0</text>", ">1</text>", ">3</text>"] {
        assert!(svg.contains(split), "{split}");
    }
}

#[test]
fn encodings_align_under_what_they_describe() {
    let svg = picture("draw(tf.ragged.constant([[1], [], [2, 3]]), encodings=True)");
    for name in [
        "row_splits",
        "row_lengths",
        "value_rowids",
        "row_starts",
        "row_limits",
    ] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}");
    }
    // value_rowids 0, 2, 2 sit under the values 1, 2, 3: at the x of their cells' text.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<(&str, &str)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| (n.text().unwrap_or(""), n.attribute("x").unwrap()))
        .collect();
    let after = |label: &str| texts.iter().position(|(t, _)| *t == label).unwrap() + 1;
    let (leaves, ids) = (after("flat_values") + 1, after("value_rowids"));
    let cells: Vec<&str> = texts[leaves..]
        .iter()
        .step_by(2)
        .take(3)
        .map(|t| t.1)
        .collect();
    let id_x: Vec<&str> = texts[ids..ids + 3].iter().map(|t| t.1).collect();
    let id_text: Vec<&str> = texts[ids..ids + 3].iter().map(|t| t.0).collect();
    assert_eq!(id_text, ["0", "2", "2"]);
    assert_eq!(cells, id_x);
    let plain = picture("draw(tf.ragged.constant([[1], [], [2, 3]]))");
    assert!(!plain.contains("value_rowids"));
}

#[test]
fn sparse_cells_are_stored_or_implicit() {
    let svg = picture("draw(tf.sparse.from_dense([[1, 0, 2], [0, 0, 3]]))");
    assert_eq!(svg.matches(r#"class="cell""#).count(), 3, "{svg}");
    assert_eq!(svg.matches(r#"class="implicit""#).count(), 3, "{svg}");
    assert!(svg.contains("[1, 2] → 3"), "the indices are listed");
}

#[test]
fn multibyte_characters_span_their_bytes() {
    let svg = picture("draw(tf.constant(['é']))");
    assert!(
        svg.contains(">c3</text>") && svg.contains(">a9</text>"),
        "{svg}"
    );
    assert!(svg.contains(">é</text>"), "{svg}");
}

#[test]
fn two_values_are_drawn_side_by_side_with_their_tables_as_text() {
    let p = pictures("draw(tf.ragged.constant([[1, 2], [3]]), tf.constant([[1, 2], [3, 0]]))");
    assert_eq!(p.svg.len(), 1);
    let svg = &p.svg[0];
    assert!(svg.contains("RaggedTensor") && svg.contains("Tensor  dtype=int32"));
    assert!(svg.contains(r#"<g transform="translate(0,0)">"#));
    assert!(p.text[0].contains("RaggedTensor") && p.text[0].contains("Tensor"));
}

/// The numbers of a picture's viewBox: its drawn width and height are the last two.
fn view_box(svg: &str) -> Vec<i64> {
    svg.split("viewBox=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_default()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn pictures_too_wide_side_by_side_stack_at_full_size() {
    // Two long headers: side by side they would pass a notebook's 800 px and be scaled
    // down, labels with them; stacked, each keeps its size.
    let (a, b) = (
        "tf.ragged.constant([[1, 2], [], [3]])",
        "tf.ragged.constant([[4], [5, 6, 7]])",
    );
    let both = picture(&format!("draw({a}, {b})"));
    check_picture("stacked", &both);
    let (one, two) = (
        picture(&format!("draw({a})")),
        picture(&format!("draw({b})")),
    );
    let (vb, v1, v2) = (view_box(&both), view_box(&one), view_box(&two));
    assert!(
        both.contains(&format!(r#" width="{}" "#, vb[2])),
        "shown at its own size: {}",
        &both[..200]
    );
    assert_eq!(vb[2], v1[2].max(v2[2]), "as wide as the wider picture");
    assert!(
        vb[3] > v1[3] + v2[3] - 16,
        "one below the other: {vb:?} {v1:?} {v2:?}"
    );
    // Two small pictures still sit side by side.
    let (x, y) = ("tf.constant([1, 2])", "tf.constant([3])");
    let small = view_box(&picture(&format!("draw({x}, {y})")));
    let (sx, sy) = (
        view_box(&picture(&format!("draw({x})"))),
        view_box(&picture(&format!("draw({y})"))),
    );
    assert_eq!(small[3], sx[3].max(sy[3]), "side by side: {small:?}");
}

#[test]
fn draw_writes_a_file_when_given_a_path() {
    let dir = std::env::temp_dir().join(format!("ragtag-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rt.svg");
    let p = pictures(&format!(
        "draw(tf.ragged.constant([[1, 2], [3]]), '{}')",
        path.display()
    ));
    assert!(p.svg.is_empty(), "a written picture is not also shown");
    let svg = std::fs::read_to_string(&path).unwrap();
    check_picture("file", &svg);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn odd_values_draw_without_panicking() {
    for src in [
        "draw(tf.ragged.constant([], dtype=tf.int32))",
        "draw(tf.ragged.constant([[], [], []]))",
        "draw(tf.constant(5))",
        "draw(tf.zeros([0, 3]))",
        "draw(tf.constant(['a\\x00b', '<&>']))",
        "draw(tf.strings.substr(tf.constant(['héllo']), 0, 2))",
        "draw(tf.SparseTensor(indices=[[0, 0, 0]], values=[1], dense_shape=[2, 2, 2]))",
        "draw(tf.SparseTensor(indices=[[3]], values=[1], dense_shape=[100000000]))",
        "draw(tf.zeros([40, 40]))",
        "draw([[1, 2], [3]])",
        "draw(3)",
        "draw('héllo')",
        "draw((tf.constant([1]), tf.ragged.constant([[1], []])))",
        "draw((((((((1,),),),),),),))",
        "draw(tf.ragged.constant([['a', 'bb'], []]))",
    ] {
        let svg = picture(src);
        check_picture(src, &svg);
    }
}
