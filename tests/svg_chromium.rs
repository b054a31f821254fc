//! The golden pictures as a browser shows them: each picture of tests/golden/svg (the svg
//! module's snapshots, NAME.snap.svg) rendered by headless Chromium (Debian's `chromium` package) in light and in dark mode, the
//! screenshot's size checked and a few pixels probed — the background and the first cell
//! in each scheme's colour — and the screenshots saved under target/svg-screenshots for
//! review. Without Chromium the test says so and passes, except under CI (`CI` set), where
//! a missing browser fails it.
#![allow(clippy::disallowed_methods)] // test images: sizes are the pictures' own

use std::path::{Path, PathBuf};
use std::process::Command;

/// Light and dark colours of the background and of a value cell (see the stylesheet in
/// src/render/svg/canvas.rs).
const SCHEMES: [(&str, [u8; 3], [u8; 3]); 2] = [
    ("light", [0xff, 0xff, 0xff], [0xdd, 0xf4, 0xff]),
    ("dark", [0x0d, 0x11, 0x17], [0x0c, 0x2d, 0x6b]),
];

/// Chromium's executable, when installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The picture's shown size and the centre of its first value cell, in screen pixels.
fn geometry(svg: &str) -> ((u32, u32), Option<(u32, u32)>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let num = |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let (w, h) = (num(root, "width"), num(root, "height"));
    let view_w: f64 = root
        .attribute("viewBox")
        .unwrap()
        .split(' ')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    let scale = w / view_w;
    // Cells sit inside translated groups: add up every translate() above the cell.
    let cell = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("cell"));
    let probe = cell.map(|c| {
        let (mut x, mut y) = (num(c, "x") + 4.0, num(c, "y") + 4.0);
        for g in c.ancestors().filter(|n| n.has_tag_name("g")) {
            if let Some(t) = g.attribute("transform") {
                let inner = t.trim_start_matches("translate(").trim_end_matches(')');
                let (dx, dy) = inner.split_once(',').unwrap();
                x += dx.parse::<f64>().unwrap();
                y += dy.parse::<f64>().unwrap();
            }
        }
        ((x * scale).round() as u32, (y * scale).round() as u32)
    });
    ((w as u32, h as u32), probe)
}

/// A decoded screenshot.
struct Shot {
    info: png::OutputInfo,
    pixels: Vec<u8>,
}

impl Shot {
    /// The colour at (`x`, `y`).
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let at = y as usize * self.info.line_size + x as usize * self.info.color_type.samples();
        [self.pixels[at], self.pixels[at + 1], self.pixels[at + 2]]
    }
}

/// Takes a screenshot of `svg` at `size`, in dark mode or not, into `out`.
fn screenshot(browser: &Path, svg: &Path, out: &Path, size: (u32, u32), dark: bool) -> Shot {
    let mut cmd = Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        &format!("--window-size={},{}", size.0, size.1),
        &format!("--screenshot={}", out.display()),
    ]);
    if dark {
        cmd.arg("--force-dark-mode");
    }
    let run = cmd
        .arg(format!("file://{}", svg.display()))
        .output()
        .unwrap();
    assert!(
        out.is_file(),
        "chromium wrote no screenshot: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let file = std::io::BufReader::new(std::fs::File::open(out).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    Shot { info, pixels }
}

#[track_caller]
fn assert_near(what: &str, got: [u8; 3], want: [u8; 3]) {
    let far = got.iter().zip(want).any(|(&g, w)| g.abs_diff(w) > 12);
    assert!(!far, "{what}: pixel {got:02x?}, expected about {want:02x?}");
}

#[test]
fn golden_pictures_render_in_chromium_light_and_dark() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed: `apt-get install chromium` (Debian) so CI can render the pictures"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium to run this test)");
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shots = root.join("target/svg-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(crate::svg::golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let file = p.file_name()?.to_str()?;
            let name = file.strip_suffix(".snap.svg")?.to_string();
            Some((name, p))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for (name, file) in files {
        let (size, probe) = geometry(&std::fs::read_to_string(&file).unwrap());
        for (scheme, bg, cell) in SCHEMES {
            let out = shots.join(format!("{name}-{scheme}.png"));
            let _ = std::fs::remove_file(&out);
            let shot = screenshot(&browser, &file, &out, size, scheme == "dark");
            let got = (shot.info.width, shot.info.height);
            assert_eq!(got, size, "{name} {scheme}: screenshot size");
            assert_near(&format!("{name} {scheme} background"), shot.pixel(1, 1), bg);
            if let Some((x, y)) = probe {
                let what = format!("{name} {scheme} cell at {x},{y}");
                assert_near(&what, shot.pixel(x, y), cell);
            }
        }
    }
}
