//! A picture in a notebook: `draw(x)` in a cell is published as display_data carrying the
//! SVG as `image/svg+xml` and the value's table as `text/plain`, and a value shown under
//! `:format svg` carries its picture too.
#![cfg(feature = "jupyter")]

use crate::kernel_common::client::*;

#[tokio::test]
async fn a_drawing_is_sent_as_svg_with_the_table_as_text() {
    let mut k = Kernel::start("draw").await;
    let (reply, out) = k
        .execute("rt = tf.ragged.constant([[3, 1], [], [5]])\ndraw(rt)")
        .await;
    assert_eq!(reply["content"]["status"], "ok");
    assert_eq!(
        types(&out),
        ["status", "execute_input", "display_data", "status"]
    );
    let data = &out[2]["content"]["data"];
    let svg = data["image/svg+xml"].as_str().unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("row_splits"),
        "{svg}"
    );
    let text = data["text/plain"].as_str().unwrap();
    assert!(text.contains("RaggedTensor"), "{text}");

    // Under `:format svg` a shown value carries its picture beside its text.
    k.execute(":format svg").await;
    let (_, out) = k.execute("rt").await;
    let data = &out[2]["content"]["data"];
    assert!(data["image/svg+xml"].as_str().unwrap().contains("<svg"));
    assert!(data["text/plain"]
        .as_str()
        .unwrap()
        .contains("RaggedTensor"));
    k.shutdown().await;
}
