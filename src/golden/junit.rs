//! The JUnit XML report of a run (`ragtag test --junit FILE`): one `<testsuite>` per
//! transcript and one `<testcase>` per `>>>` block, named `FILE::LINE`, as CI systems
//! (GitLab, Jenkins, GitHub's test reporters) read it. Written by hand: the format needs a
//! handful of elements, and escaping is the only subtlety.

use super::{BlockOutcome, Status, Summary};

/// Text escaped for XML content or an attribute value; characters XML 1.0 cannot hold
/// (most control characters) are written as `?`.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// One `<testcase>` element.
fn case(out: &mut String, class: &str, name: &str, outcome: &BlockOutcome) {
    let head = format!(
        "    <testcase classname=\"{}\" name=\"{}\"",
        escape(class),
        escape(name)
    );
    match outcome {
        BlockOutcome::Passed => out.push_str(&format!("{head}/>\n")),
        BlockOutcome::Skipped => out.push_str(&format!(
            "{head}>\n      <skipped message=\"left out by the filters\"/>\n    </testcase>\n"
        )),
        BlockOutcome::NotRun => out.push_str(&format!(
            "{head}>\n      <skipped message=\"not run: an earlier input took the process down\"/>\n    </testcase>\n"
        )),
        BlockOutcome::Failed(why) => {
            let first = why.lines().next().unwrap_or("failed");
            out.push_str(&format!(
                "{head}>\n      <failure message=\"{}\" type=\"mismatch\">{}</failure>\n    </testcase>\n",
                escape(first),
                escape(why)
            ));
        }
    }
}

/// The report of `summary` as a JUnit XML document.
pub fn junit_xml(summary: &Summary) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    for r in &summary.results {
        let file = r.path.display().to_string();
        let mut body = String::new();
        let (mut t, mut f, mut e, mut s) = (0, 0, 0, 0);
        match &r.status {
            Status::Passed | Status::Blessed | Status::Failed(_) | Status::Pending(..)
                if !r.blocks.is_empty() =>
            {
                for b in &r.blocks {
                    t += 1;
                    match b.outcome {
                        BlockOutcome::Failed(_) => f += 1,
                        BlockOutcome::Skipped | BlockOutcome::NotRun => s += 1,
                        BlockOutcome::Passed => {}
                    }
                    case(&mut body, &file, &format!("{file}::{}", b.line), &b.outcome);
                }
            }
            Status::Passed | Status::Blessed => {
                // A transcript without inputs: one case stands for it.
                t += 1;
                case(&mut body, &file, &file, &BlockOutcome::Passed);
            }
            Status::Error(why) => {
                t += 1;
                e += 1;
                body.push_str(&format!(
                    "    <testcase classname=\"{0}\" name=\"{0}\">\n      <error message=\"{1}\" type=\"error\">{1}</error>\n    </testcase>\n",
                    escape(&file),
                    escape(why)
                ));
            }
            Status::Failed(_) | Status::Pending(..) => {
                t += 1;
                f += 1;
                let outcome = BlockOutcome::Failed(r.report());
                case(&mut body, &file, &file, &outcome);
            }
        }
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{t}\" failures=\"{f}\" errors=\"{e}\" skipped=\"{s}\">\n{body}  </testsuite>\n",
            escape(&file)
        ));
        (tests, failures, errors, skipped) = (tests + t, failures + f, errors + e, skipped + s);
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ragtag test\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">\n{suites}</testsuites>\n"
    )
}
