//! Set displays and set comprehensions: `{a, *xs}`, `{x for x in xs}`. The grammar reads a
//! brace once as `dict_display` whose items may lack a value; a first item without one
//! makes it a set, and every later item must agree.

use super::*;

impl Converter<'_> {
    /// Whether a brace display is a set: its first item is `x` or `*xs` (not `k: v`, not
    /// `**m`). `{}` is a dict.
    pub(crate) fn is_set_display(&self, pair: &Pair<'_, Rule>) -> bool {
        let Some(first) = pair.clone().into_inner().next() else {
            return false;
        };
        if first.as_rule() != Rule::dict_item {
            return false;
        }
        let mut kv = first.into_inner();
        let key = kv.next();
        key.is_some_and(|k| k.as_rule() != Rule::or_test) && kv.next().is_none()
    }

    /// `{a, b, *xs}` or `{elt for …}`.
    pub(crate) fn set_display(&self, pair: Pair<'_, Rule>) -> Result1<ExprKind> {
        let mut items = Vec::new();
        let mut pairs = pair.into_inner().peekable();
        while let Some(item) = pairs.next() {
            let item_span = span_of(&item);
            let mut kv = item.into_inner();
            let first = kv.next().expect("an item");
            if first.as_rule() == Rule::or_test {
                return Err(SyntaxError::new(
                    SyntaxErrorKind::UnexpectedToken,
                    "invalid syntax: `**` unpacks a mapping into a dict, not a set",
                    item_span,
                ));
            }
            if kv.next().is_some() {
                return Err(SyntaxError::new(
                    SyntaxErrorKind::UnexpectedToken,
                    "invalid syntax: a `key: value` item in a set display",
                    item_span,
                )
                .hint("a display is a set (`{a, b}`) or a dict (`{k: v}`), not both"));
            }
            let comp = pairs.peek().is_some_and(|n| n.as_rule() == Rule::comp_for);
            if first.as_rule() == Rule::star_expr {
                if comp {
                    return Err(SyntaxError::new(
                        SyntaxErrorKind::StarredMisuse,
                        "iterable unpacking cannot be used in comprehension",
                        item_span,
                    ));
                }
                items.push(self.starred(first)?);
            } else {
                items.push(self.expr(first)?);
            }
            if comp {
                let elt = Box::new(items.pop().expect("comprehension element"));
                let generators = self.comprehensions(pairs)?;
                return Ok(ExprKind::SetComp { elt, generators });
            }
        }
        Ok(ExprKind::Set(items))
    }

    /// The error for a set item (`x` or `*xs`) in a dict display.
    pub(crate) fn set_item_in_dict(span: Span) -> SyntaxError {
        SyntaxError::new(
            SyntaxErrorKind::ExpectedToken,
            "':' expected after dictionary key",
            span,
        )
        .hint("a display is a set (`{a, b}`) or a dict (`{k: v}`), not both")
    }
}
