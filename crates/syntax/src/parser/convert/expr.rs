//! Expressions other than operator chains to the AST: conditionals, lambdas, tuples,
//! calls, attributes, subscripts and slices, and the displays (`(…)`, `[…]`, `{…}`).

use std::collections::HashSet;

use super::*;

impl Converter<'_> {
    /// Python's `test`: a lambda, or an operator expression with an optional `if … else …`.
    pub(crate) fn expr(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let _depth = self.enter(1, &pair)?;
        let span = span_of(&pair);
        let mut it = children(pair).peekable();
        let walrus = it
            .next_if(|p| p.as_rule() == Rule::walrus_name)
            .and_then(|p| children(p).next())
            .map(|n| n.as_str().to_owned());
        let first = it.next().expect("an expression");
        let value_span = Span::new(span_of(&first).start, span.end);
        let value = if first.as_rule() == Rule::lambda_expr {
            self.lambda(first)?
        } else {
            let then = self.or_test(first)?;
            match (it.next(), it.next()) {
                (Some(cond), Some(orelse)) => {
                    let cond = Box::new(self.or_test(cond)?);
                    let orelse = Box::new(self.expr(orelse)?);
                    boxed(
                        ExprKind::IfElse {
                            cond,
                            then: Box::new(then),
                            orelse,
                        },
                        value_span,
                    )
                }
                _ => then,
            }
        };
        Ok(match walrus {
            Some(name) => boxed(
                ExprKind::Walrus(name.as_str().into(), Box::new(value)),
                span,
            ),
            None => value,
        })
    }

    pub(crate) fn lambda(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let mut params = Vec::new();
        let mut body = None;
        for p in children(pair) {
            match p.as_rule() {
                Rule::params => params = self.param_list(p)?,
                _ => body = Some(self.expr(p)?),
            }
        }
        Ok(boxed(
            ExprKind::Lambda(params, Box::new(body.expect("lambda body"))),
            span,
        ))
    }

    /// `a` or `a, b` (a tuple); a trailing comma makes a tuple too.
    pub(crate) fn testlist(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        not_starred(self.testlist_or_starred(pair)?)
    }

    /// Like [`Converter::testlist`], but a lone `*x` stays (the left of `=` is checked as a
    /// target).
    pub(crate) fn testlist_or_starred(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let (mut items, comma) = self.expr_items(pair)?;
        if items.len() == 1 && !comma {
            return Ok(items.pop().expect("one expression"));
        }
        Ok(boxed(ExprKind::Tuple(items), span))
    }

    /// The expressions among a pair's children, and whether a trailing comma was seen.
    pub(crate) fn expr_items(&self, pair: Pair<'_, Rule>) -> Result1<(Vec<Expr>, bool)> {
        let mut items = Vec::new();
        let mut comma = false;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::trailing_comma => comma = true,
                Rule::star_expr => items.push(self.starred(p)?),
                _ => items.push(self.expr(p)?),
            }
        }
        Ok((items, comma))
    }

    /// `*xs`: a starred item of a display or a target list.
    pub(crate) fn starred(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let inner = self.or_test(pair.into_inner().next().expect("starred value"))?;
        Ok(boxed(ExprKind::Starred(Box::new(inner)), span))
    }

    /// An atom followed by calls, attribute accesses and subscripts.
    pub(crate) fn primary(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        check_chain(&pair)?;
        let mut it = pair.clone().into_inner();
        let first = it.next().expect("an atom");
        match it.peek() {
            None => self.atom(first),
            Some(_) => {
                // Each trailer adds a level to the tree.
                let _depth = self.enter(it.len(), &pair)?;
                self.trailers(self.atom(first)?, it)
            }
        }
    }

    /// Applies calls, attribute accesses and subscripts to `e`, left to right.
    pub(crate) fn trailers(&self, mut e: Expr, it: Pairs<'_>) -> Result1<Expr> {
        for t in it {
            let span = Span::new(e.span.start, span_of(&t).end);
            let kind = match t.as_rule() {
                Rule::call => ExprKind::Call(Box::new(e), self.call_args(t)?),
                Rule::attribute => {
                    let name = t
                        .into_inner()
                        .next()
                        .expect("attribute name")
                        .as_str()
                        .to_owned();
                    ExprKind::Attr(Box::new(e), name)
                }
                _ => {
                    let items = t
                        .into_inner()
                        .map(|p| self.index_item(p))
                        .collect::<Result1<Vec<_>>>()?;
                    ExprKind::Subscript(Box::new(e), items)
                }
            };
            e = boxed(kind, span);
        }
        Ok(e)
    }

    pub(crate) fn call_args(&self, pair: Pair<'_, Rule>) -> Result1<Vec<Arg>> {
        let call_span = span_of(&pair);
        let mut args: Vec<Arg> = Vec::new();
        // Keyword names seen so far: one lookup per argument keeps a long call linear.
        let mut keywords = HashSet::new();
        // Whether a `**mapping` came before: no positional argument may follow it.
        let mut unpacked = false;
        let mut pairs = pair.into_inner().peekable();
        while let Some(p) = pairs.next() {
            let span = span_of(&p);
            if pairs.peek().is_some_and(|n| n.as_rule() == Rule::gen_for) {
                // `f(x for x in xs)`: the generator expression is the one argument.
                if matches!(p.as_rule(), Rule::star_arg | Rule::kwarg | Rule::dstar_arg) {
                    return Err(SyntaxError::new(
                        SyntaxErrorKind::UnexpectedToken,
                        "invalid syntax: a generator expression must be an expression",
                        span,
                    ));
                }
                let elt = self.expr(p)?;
                let clauses = pairs.next().expect("the `for` clauses");
                let generators = self.comprehensions(clauses.into_inner())?;
                // Python's span for it: the parentheses of the call.
                let value = boxed(
                    ExprKind::GenExp {
                        elt: Box::new(elt),
                        generators,
                    },
                    call_span,
                );
                return Ok(vec![Arg {
                    name: None,
                    value,
                    star: false,
                    double_star: false,
                }]);
            }
            let arg = match p.as_rule() {
                Rule::star_arg => {
                    if unpacked {
                        return Err(SyntaxError::new(
                            SyntaxErrorKind::PositionalAfterKeyword,
                            "iterable argument unpacking follows keyword argument unpacking",
                            span,
                        ));
                    }
                    let value = self.expr(p.into_inner().next().expect("starred value"))?;
                    Arg {
                        name: None,
                        value,
                        star: true,
                        double_star: false,
                    }
                }
                Rule::dstar_arg => {
                    unpacked = true;
                    let value = self.expr(p.into_inner().next().expect("unpacked mapping"))?;
                    Arg {
                        name: None,
                        value,
                        star: false,
                        double_star: true,
                    }
                }
                Rule::kwarg => {
                    let mut it = p.into_inner();
                    let name = it.next().expect("keyword").as_str().to_owned();
                    if !keywords.insert(name.clone()) {
                        return Err(SyntaxError::new(
                            SyntaxErrorKind::RepeatedKeywordArgument,
                            format!("keyword argument repeated: `{name}`"),
                            span,
                        ));
                    }
                    Arg {
                        name: Some(name),
                        value: self.expr(it.next().expect("keyword value"))?,
                        star: false,
                        double_star: false,
                    }
                }
                _ => {
                    if unpacked || !keywords.is_empty() {
                        let msg = if unpacked {
                            "positional argument follows keyword argument unpacking"
                        } else {
                            "positional argument follows keyword argument"
                        };
                        return Err(SyntaxError::new(
                            SyntaxErrorKind::PositionalAfterKeyword,
                            msg,
                            span,
                        ));
                    }
                    Arg {
                        name: None,
                        value: self.expr(p)?,
                        star: false,
                        double_star: false,
                    }
                }
            };
            args.push(arg);
        }
        Ok(args)
    }

    /// One part of a subscript: an expression or a slice `start:stop:step`.
    pub(crate) fn index_item(&self, pair: Pair<'_, Rule>) -> Result1<Index> {
        let span = span_of(&pair);
        let (mut start, mut stop, mut step) = (None, None, None);
        let mut slice = false;
        for p in pair.into_inner() {
            if p.as_rule() == Rule::expr {
                start = Some(self.expr(p)?);
                continue;
            }
            slice = true;
            for part in p.into_inner() {
                let value = part.as_rule();
                let e = part.into_inner().next().map(|p| self.expr(p)).transpose()?;
                if value == Rule::slice_stop {
                    stop = e;
                } else {
                    step = e;
                }
            }
        }
        match (slice, start) {
            (false, Some(e)) => Ok(Index::Expr(e)),
            (_, start) => Ok(Index::Slice {
                start,
                stop,
                step,
                span,
            }),
        }
    }

    pub(crate) fn atom(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        let span = span_of(&pair);
        let kind = match pair.as_rule() {
            Rule::paren => return self.paren(pair, span),
            #[cfg(test)]
            Rule::literal_block if data_blocks::grammar_only() => {
                return self.block_by_grammar(pair.as_str(), span.start)
            }
            // An int past 64 bits is no column value: the block is read as Python's list
            // of Python values instead (with a big int).
            Rule::literal_block => {
                return data_blocks::literal_block(pair.as_str(), span.start).or_else(|e| {
                    if e.kind == SyntaxErrorKind::InvalidNumber {
                        self.block_by_grammar(pair.as_str(), span.start)
                    } else {
                        Err(e)
                    }
                })
            }
            Rule::literal_ref => return self.expand(span.start),
            Rule::list_display => self.list_display(pair)?,
            Rule::dict_display => self.dict_display(pair)?,
            Rule::strings => self.strings(pair)?,
            Rule::ellipsis => ExprKind::Ellipsis,
            Rule::float => float_literal(pair.as_str(), span)?,
            Rule::int => int_or_big(pair.as_str(), span)?,
            Rule::const_true => ExprKind::Bool(true),
            Rule::const_false => ExprKind::Bool(false),
            Rule::const_none => ExprKind::None,
            _ => ExprKind::Name(pair.as_str().into()),
        };
        Ok(boxed(kind, span))
    }

    /// `()`, `(a,)`, `(a, b)`: tuples; `(a)` is `a` (its span widened to the parentheses).
    pub(crate) fn paren(&self, pair: Pair<'_, Rule>, span: Span) -> Result1<Expr> {
        let mut inner = pair.clone().into_inner();
        if inner.nth(1).is_some_and(|p| p.as_rule() == Rule::gen_for) {
            let mut pairs = pair.into_inner();
            let elt = Box::new(self.comprehension_elt(pairs.next().expect("generator element"))?);
            let clauses = pairs.next().expect("the `for` clauses");
            let generators = self.comprehensions(clauses.into_inner())?;
            return Ok(boxed(ExprKind::GenExp { elt, generators }, span));
        }
        let (mut items, comma) = self.expr_items(pair)?;
        if items.len() == 1 && !comma {
            let mut inner = not_starred(items.pop().expect("one expression"))?;
            inner.span = span;
            return Ok(inner);
        }
        Ok(boxed(ExprKind::Tuple(items), span))
    }

    pub(crate) fn dict_display(&self, pair: Pair<'_, Rule>) -> Result1<ExprKind> {
        if self.is_set_display(&pair) {
            return self.set_display(pair);
        }
        let mut entries: Vec<(Option<Expr>, Expr)> = Vec::new();
        let mut pairs = pair.into_inner().peekable();
        while let Some(item) = pairs.next() {
            if item.as_rule() == Rule::comp_for {
                let (key, value) = entries.pop().expect("a key and a value before `for`");
                let Some(key) = key else {
                    return Err(SyntaxError::new(
                        SyntaxErrorKind::StarredMisuse,
                        "dict unpacking cannot be used in dict comprehension",
                        value.span,
                    ));
                };
                let generators = self.comprehensions(std::iter::once(item).chain(pairs))?;
                return Ok(ExprKind::DictComp {
                    key: Box::new(key),
                    value: Box::new(value),
                    generators,
                });
            }
            let item_span = span_of(&item);
            let mut kv = item.into_inner();
            let first = kv.next().expect("key");
            if first.as_rule() != Rule::or_test && kv.peek().is_none() {
                return Err(Self::set_item_in_dict(item_span));
            }
            match kv.next() {
                // `**mapping`
                None => entries.push((None, self.or_test(first)?)),
                Some(v) => entries.push((Some(self.expr(first)?), self.expr(v)?)),
            }
        }
        Ok(ExprKind::Dict(entries))
    }

    /// `[a, b]` or `[elt for target in iter if cond …]`.
    pub(crate) fn list_display(&self, pair: Pair<'_, Rule>) -> Result1<ExprKind> {
        let mut items = Vec::new();
        let mut pairs = pair.into_inner().peekable();
        while let Some(p) = pairs.next() {
            if pairs.peek().is_some_and(|n| n.as_rule() == Rule::comp_for) {
                items.push(self.comprehension_elt(p)?);
            } else if p.as_rule() == Rule::star_expr {
                items.push(self.starred(p)?);
            } else {
                items.push(self.expr(p)?);
            }
            if pairs.peek().is_some_and(|n| n.as_rule() == Rule::comp_for) {
                let elt = Box::new(items.pop().expect("comprehension element"));
                let generators = self.comprehensions(pairs)?;
                return Ok(ExprKind::ListComp { elt, generators });
            }
        }
        Ok(ExprKind::List(items))
    }

    /// The element of a list comprehension or generator expression: never starred.
    fn comprehension_elt(&self, pair: Pair<'_, Rule>) -> Result1<Expr> {
        if pair.as_rule() == Rule::star_expr {
            return Err(SyntaxError::new(
                SyntaxErrorKind::StarredMisuse,
                "iterable unpacking cannot be used in comprehension",
                span_of(&pair),
            ));
        }
        self.expr(pair)
    }

    /// The `for … in … if …` clauses of a comprehension.
    pub(crate) fn comprehensions<'i>(
        &self,
        pairs: impl Iterator<Item = Pair<'i, Rule>>,
    ) -> Result1<Vec<Comprehension>> {
        let mut out = Vec::new();
        for p in pairs {
            let mut it = children(p);
            let target = target_list(it.next().expect("comprehension target"))?;
            let iter = self.or_test(it.next().expect("comprehension iterable"))?;
            let conds = it
                .map(|c| self.or_test(children(c).next().expect("condition")))
                .collect::<Result1<Vec<_>>>()?;
            out.push(Comprehension {
                target,
                iter,
                conds,
            });
        }
        Ok(out)
    }

    /// A data block converted the grammar's way (`list_display`, a node per element), for
    /// tests comparing it with the scanner. Spans come out relative to `text` and are moved
    /// to `base`.
    fn block_by_grammar(&self, text: &str, base: usize) -> Result1<Expr> {
        fn shift(e: &mut Expr, by: usize) {
            e.span = Span::new(e.span.start + by, e.span.end + by);
            match &mut e.kind {
                ExprKind::List(items) => items.iter_mut().for_each(|i| shift(i, by)),
                ExprKind::Unary(_, x) => shift(x, by),
                _ => {}
            }
        }
        let shifted = |mut err: SyntaxError| {
            err.span = Span::new(err.span.start + base, err.span.end + base);
            err
        };
        let pair = RagtagParser::parse(Rule::list_display, text)
            .map_err(|e| {
                SyntaxError::new(
                    SyntaxErrorKind::UnexpectedToken,
                    e.to_string(),
                    Span::new(base, base),
                )
            })?
            .next()
            .expect("one list display");
        let span = Span::new(0, text.len());
        let mut e = boxed(self.list_display(pair).map_err(shifted)?, span);
        shift(&mut e, base);
        Ok(e)
    }
}

/// `e`, refused when it is a starred expression standing alone (`*xs` is only an item of a
/// display or of a target list).
pub(crate) fn not_starred(e: Expr) -> Result1<Expr> {
    if matches!(e.kind, ExprKind::Starred(_)) {
        return Err(SyntaxError::new(
            SyntaxErrorKind::StarredMisuse,
            "can't use starred expression here",
            e.span,
        ));
    }
    Ok(e)
}
