"""Matching a template against a page tree (seed 000, procedure 6, repaired).

One pass over the page: every page node is visited at most once, and each
visit both checks and extracts. Three things make that possible:

* **fixed subtrees by digest**: a fully fixed template element carries the
  digests of its seed elements' serializations
  (:attr:`~scrapy_wrapx.template.Elem.sigs`); a page element with one of
  them is taken whole, unvisited; so is an element of *chrome* (no field
  below, its links varying by a session id) that has its template
  element's shape (see :class:`._compiled.Chrome`);
* **shallow fit** decides where items go (see :mod:`._fit`): a hedge of
  children is matched as a regular expression over shallow fits, by the
  plan its shape allows (see :mod:`._plan`); the chosen children are then
  matched deeply, once;
* a subtree that does not fit fails *locally*: where a hedge has no parse,
  its children are aligned with the items (see :mod:`._lenient`), and
  whatever aligned is extracted; what did not lowers the score.

Recursion follows the template's depth only, which induction caps.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scrapy_wrapx.dom import TEXT, Node, PageTree
from scrapy_wrapx.extraction import _lenient
from scrapy_wrapx.extraction._compiled import Compiled, Env, digest
from scrapy_wrapx.extraction._fit import Ends, Fits, Spans, parse_spans
from scrapy_wrapx.extraction._plan import GREEDY, TAGS
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Template, Text, TNode, node_form

#: How many levels below the items of a shallow parse that had a choice
#: positional matches check each element's attributes too (see
#: :meth:`Matcher.search`), so that a wrong choice shows as a misfit: the
#: rows alike by their tag differ in what they hold near their top (an
#: ``<li>`` of a ``<span class=phone>``, one of ``<span class=hours>``).
#: Not everywhere: nothing could correct the rest, and the check would
#: cost a look at every element of the page.
CHECKED_LEVELS = 2
#: ``(weight, where it ended)`` of a greedy pass, or None.
Greedy = tuple[float, int] | None


class Matcher(Fits):
    """Matches one page; memo tables live as long as the page."""

    def __init__(self, template: Template, compiled: Compiled, tree: PageTree) -> None:
        super().__init__(compiled, tree)
        self.template = template
        #: Page leaves the match explained (taken by a fitting item).
        self.explained = 0
        #: Whether the last parse had a choice to make.
        self.ambiguous = False
        self.hits = 0
        #: Hedges already matched by a plan that may match deeply twice
        #: (see :meth:`hedge`): ``(items, owner index, start, end)`` to
        #: ``(items, weight, environment, misfits, explained, hits)``.
        self.hedges: dict[tuple[int, int, int, int], tuple[Any, ...]] = {}
        #: The version of a block a page node is (see :meth:`version`), by
        #: group of versions and page node; -1 for any of them.
        self.version_memo: dict[tuple[int, int], int] = {}
        #: Matches of a page node as each version of a block (see
        #: :meth:`_trial`): ``(uid, node index)`` to ``(weight,
        #: environment, misfits, explained, hits)``.
        self.tried: dict[tuple[int, int], tuple[float, Env, int, int, int]] = {}
        #: Levels left to check below a shallow parse that had a choice
        #: (see :meth:`search` and :data:`CHECKED_LEVELS`).
        self.checking = 0
        #: The page's tables read by their own header (see
        #: :mod:`._tables`), by template table uid.
        self.tables: dict[int, Node] = {}
        #: The template's elements of chrome (asked of every element).
        self.chrome_ends = compiled.chrome.ends

    # -- deep matching, one visit per page node ----------------------------

    def elem(self, t: Elem, node: Node, env: Env) -> float:
        """Match and extract ``node`` as ``t``; the weight matched."""
        uid = t.uid
        if self.tried and (uid, node.index) in self.tried:
            return self._replay(uid, node, env)
        names, sigs, plan, tags = self.c.elems[uid]
        element = node.element
        if uid in self.c.header_tables:
            self.tables[uid] = node
        if (sigs and digest(element) in sigs) or (
            uid in self.chrome_ends and self._chrome(uid, node, env)
        ):
            self.hits += 1
            if node.first_leaf >= 0:
                self.explained += node.last_leaf - node.first_leaf + 1
            return float(t.weight)
        if names:
            env[uid] = tuple([element.get(name) for name in names])
        children = node.children
        if not children:
            if node.leaf_index >= 0:
                self.explained += 1  # an image or link leaf
            if not t.children:
                return 1.0
        if plan == TAGS:  # the common case, without a call to :meth:`hedge`
            return 1.0 + self._positional(t.children, tags, node, 0, len(children), env)
        return 1.0 + self.hedge(t.children, plan, tags, node, 0, len(children), env)

    def _replay(self, uid: int, node: Node, env: Env) -> float:
        """What matching ``node`` as the element ``uid`` gave when it was
        matched already, to tell versions apart (see :meth:`version`)."""
        weight, kept, misfits, explained, hits = self.tried[uid, node.index]
        self.misfits += misfits
        self.explained += explained
        self.hits += hits
        env.update(kept)
        return weight

    def version(self, t: Elem, node: Node) -> int:
        """The uid of the version of ``t``'s block (see
        :func:`~scrapy_wrapx.template.block_versions`) that ``node`` is,
        -1 for any: decided once per page node (:meth:`_version_of`)."""
        group = self.versions[t.uid]
        key = (id(group), node.index)
        chosen = self.version_memo.get(key)
        if chosen is None:
            chosen = self.version_memo[key] = self._version_of(group, node)
        return chosen

    def _version_of(self, group: tuple[Elem, ...], node: Node) -> int:
        """The uid of the version of a block ``node`` is, -1 for any: the
        one ``node`` is exactly (a fixed subtree's digest, chrome's shape);
        any, where ``node`` opens as none of them or has a look-alike
        sibling (a page showing two versions side by side, in their places
        in the hedge); else the first that, matched deeply, fits it all;
        else the one that explains most of ``node``'s leaves, and where
        the best two explain as many, any of them: the hedge's parse
        decides, as for other items. Not the fewest misfits: a version one
        seed showed has its texts fixed, and they differ on every other
        page (its latent data, see :mod:`scrapy_wrapx.induction._latent`).
        Versions are few, and none is in a list's records, where this
        would be done record after record (see
        :func:`~scrapy_wrapx.template.block_versions`)."""
        found = None  # the digest of ``node``, once one version asks
        for version in group:
            sigs = self.c.elems[version.uid][1]
            if sigs and found is None:
                found = digest(node.element)
            if (sigs and found in sigs) or self._chrome(version.uid, node, {}):
                return version.uid
        if not any(self._opens(self.c.openings[version.uid], node) for version in group):
            return -1  # it opens as none of them: no version is more it than another
        parent = node.parent
        if (
            parent is not None
            and sum(self._looks(group[0], child) for child in parent.children) > 1
        ):
            return -1  # the versions side by side: their places tell them apart
        leaves = node.last_leaf - node.first_leaf + 1 if node.first_leaf >= 0 else 0
        ranks = []
        for version in group:
            if self._looks(version, node):
                explained, misfits = self._trial(version, node)
                if explained == leaves and not misfits:
                    return version.uid  # it fits all of ``node``: no other can do better
                ranks.append((explained, version.uid))
        ranks.sort()
        if len(ranks) < 2 or ranks[-1][0] == ranks[-2][0]:
            return -1
        return ranks[-1][1]

    def _opens(self, chain: list[Elem], node: Node) -> bool:
        """Whether ``node`` opens with elements that look like ``chain``."""
        for item in chain:
            if not node.children or not self._looks(item, node.children[0]):
                return False
            node = node.children[0]
        return True

    def _trial(self, t: Elem, node: Node) -> tuple[int, int]:
        """How many of ``node``'s leaves matching it as ``t`` explains, and
        its misfits, leaving the match's counts as they were; the match is
        kept for :meth:`elem` to take if ``t`` is the version chosen."""
        state = (self.misfits, self.explained, self.hits)
        local: Env = {}
        weight = self.elem(t, node, local)
        found, misfits = self.explained - state[1], self.misfits - state[0]
        self.tried[t.uid, node.index] = (weight, local, misfits, found, self.hits - state[2])
        self.misfits, self.explained, self.hits = state
        return found, misfits

    def _chrome(self, uid: int, node: Node, env: Env) -> bool:
        """Whether ``node`` is an element of chrome with its shape (see
        :class:`._compiled.Chrome`): then it is taken whole, and kept
        under ``~uid`` for :func:`.render`, which has no values of its
        varying attributes.

        A subtree is a run of the page's nodes in pre-order, from the
        element to its last leaf (every element has a leaf below it or is
        one), so its shape is read off that run without a walk."""
        shape = self.c.chrome.shape(uid)
        if shape is None or node.first_leaf < 0:
            return False
        tags, widths, texts = shape
        span = self.nodes[node.index : self.leaves[node.last_leaf].index + 1]
        if (
            len(span) != len(tags)
            or [child.tag for child in span] != tags
            or [len(child.children) for child in span] != widths
            or [child.value for child in span if child.tag == TEXT] != texts
        ):
            return False
        env[~uid] = node
        return True

    def text(self, item: Text, node: Node, env: Env, aligned: bool = True) -> float:
        """Match and extract a text. A fixed text that differs is kept
        when it is latent (see :mod:`scrapy_wrapx.induction._latent`) and
        ``aligned``: in its place in a hedge that fits, not merely paired
        with some text of a hedge that does not (see :mod:`._lenient`)."""
        value = node.value
        fixed = self.c.fixed_text.get(item.uid)
        if fixed is not None:
            if value == fixed:
                self.explained += 1
                return 1.0
            self.misfits += 1
            if aligned and item.uid in self.c.latent:
                env[item.uid] = value
            return 0.0
        slots = item.split(value)
        if slots is None:
            self.misfits += 1
            if item.slots and not item.foreign_label(value):
                env[item.uid] = value  # did not fit the tokens: kept whole
            return 0.0
        if item.slots:
            env[item.uid] = slots
        self.explained += 1
        return 1.0

    def hedge(
        self,
        items: list[TNode],
        plan: int,
        tags: tuple[str, ...] | None,
        owner: Node,
        start: int,
        end: int,
        env: Env,
    ) -> float:
        """Match ``owner.children[start:end]`` as ``items`` (see :mod:`._plan`).

        A greedy pass that fails, or a search whose shallow parse misfits,
        matches its hedge deeply a second time; each enclosing hedge that
        does so doubles the work below it, so a page that fits badly at
        several depths (rows of optional cells in tables of optional rows)
        took time exponential in the depth. Such a hedge's result is kept
        and replayed when the same hedge is matched again, so every hedge
        is matched deeply once per parse that needs it."""
        if plan == TAGS:
            assert tags is not None
            return self._positional(items, tags, owner, start, end, env)
        key = (id(items), owner.index, start, end)
        done = self.hedges.get(key)
        if done is not None and done[0] is items:
            _, found, kept, misfits, explained, hits = done
            self.misfits += misfits
            self.explained += explained
            self.hits += hits
            env.update(kept)
            return float(found)
        before = (self.misfits, self.explained, self.hits)
        local: Env = {}
        if plan == GREEDY:
            weight = self._deterministic(items, owner, start, end, local)
        else:
            weight = self.search(items, owner, start, end, local)
        self.hedges[key] = (
            items,
            weight,
            local,
            self.misfits - before[0],
            self.explained - before[1],
            self.hits - before[2],
        )
        env.update(local)
        return weight

    def _positional(
        self, items: list[TNode], tags: tuple[str, ...], owner: Node, start: int, end: int, env: Env
    ) -> float:
        """Match a hedge of elements and texts only (plan :data:`._plan.TAGS`)."""
        children = owner.children
        hedge = children if start == 0 and end == len(children) else children[start:end]
        # Elements and texts fit position by position or not at all.
        if len(tags) != len(hedge) or tags != tuple([child.tag for child in hedge]):
            self.misfits += 1
            return self.lenient(items, owner, start, end, env)
        weight = 0.0
        levels = self.checking
        if levels:
            self.checking = levels - 1
        pairs: Iterable[tuple[TNode, Node]] = zip(items, hedge, strict=True)
        labelled = self.c.labelled_values.get(id(items))
        if labelled is not None:
            # Values whose label on the page is another than the template's
            # (see :func:`._compiled.labelled_value`): misfits, not values.
            others = [
                index
                for index in labelled
                if self.other_label(items[index - 1], children[start + index - 1])  # type: ignore[arg-type]
            ]
            if others:
                self.misfits += len(others)
                pairs = [pair for index, pair in enumerate(pairs) if index not in others]
        for item, child in pairs:
            if child.tag == TEXT:
                weight += self.text(item, child, env)  # type: ignore[arg-type]
                continue
            if levels and not self._looks(item, child):  # type: ignore[arg-type]
                # Another element of the tag (``<span class=hours>`` for
                # ``<span class=phone>``) below a parse that had a choice:
                # a misfit, which has that hedge parsed again by exact fits
                # (the row of the hours, not the phone's).
                self.misfits += 1
            weight += self.elem(item, child, env)  # type: ignore[arg-type]
        self.checking = levels
        return weight

    def _deterministic(
        self, items: list[TNode], owner: Node, start: int, end: int, env: Env
    ) -> float:
        """One greedy pass; where the only parse there could be failed, so
        would the search: align instead."""
        state = (self.misfits, self.explained)
        local: Env = {}
        found = self.greedy(items, owner.children, start, end, local)
        if found is not None and found[1] == end:
            env.update(local)
            return found[0]
        self.misfits, self.explained = state
        self.misfits += 1
        return self.lenient(items, owner, start, end, env)

    def greedy(
        self, items: list[TNode], children: list[Node], j: int, end: int, env: Env
    ) -> Greedy:
        """One left-to-right pass over a hedge, taking every optional and
        repetition that can start (in a deterministic hedge, see
        :mod:`._plan`, the only parse): ``(weight, where it ended)``, or
        None."""
        weight = 0.0
        for item in items:
            if isinstance(item, Elem):
                if j >= end or children[j].tag != item.tag or not self.shallow(item, children[j]):
                    return None
                weight += self.elem(item, children[j], env)
                j += 1
            elif isinstance(item, Text):
                if j >= end or children[j].tag != TEXT:
                    return None
                weight += self.text(item, children[j], env)
                j += 1
            else:
                found = self._greedy_block(item, children, j, end, env)
                if found is None:
                    return None
                weight += found[0]
                j = found[1]
        return weight, j

    def _greedy_block(
        self, item: TNode, children: list[Node], j: int, end: int, env: Env
    ) -> Greedy:
        if isinstance(item, Opt):
            return self._greedy_opt(item, children, j, end, env)
        if isinstance(item, Set):
            return self._greedy_set(item, children, j, end, env)
        return None

    def _greedy_opt(self, item: Opt, children: list[Node], j: int, end: int, env: Env) -> Greedy:
        """Taken when its content can start here; its weight is not counted."""
        if j < end and self.starts(item.uid, children[j]):
            found = self.greedy([item.child], children, j, end, env)
            if found is None:
                return None
            env[item.uid] = True
            return 0.0, found[1]
        env[item.uid] = False
        return 0.0, j

    def _greedy_set(self, item: Set, children: list[Node], j: int, end: int, env: Env) -> Greedy:
        """Every repetition that can start, at least one; the weight of the
        best."""
        reps: list[Env] = []
        best = 0.0
        while j < end and self.starts(item.uid, children[j]):
            rep: Env = {}
            found = self.greedy(item.children, children, j, end, rep)
            if found is None or found[1] == j:
                return None
            reps.append(rep)
            best = max(best, found[0])
            j = found[1]
        if not reps:
            return None
        env[item.uid] = reps
        return best, j

    def _parse(
        self, items: list[TNode], owner: Node, start: int, end: int, ends: Ends
    ) -> Spans | None:
        """:func:`._fit.parse_spans`, noting whether it had a choice."""
        found = parse_spans(items, owner, start, end, ends)
        if found is None:
            return None
        spans, self.ambiguous = found
        return spans

    def _shallow_parse(self, items: list[TNode], owner: Node, start: int, end: int) -> Spans | None:
        """The greedy pass's spans if it reaches the end (the first path the
        search would try, so possibly one of several), else the search's."""
        spans: Spans = []
        if self.greedy_ends(items, owner.children, start, end, spans) == end:
            self.ambiguous = True
            return spans
        return self._parse(items, owner, start, end, self.item_ends)

    def search(self, items: list[TNode], owner: Node, start: int, end: int, env: Env) -> float:
        """The general case: parse by shallow fits, then match deeply.

        Where the shallow parse chose a branch that did not fit deeper down
        (two optional blocks alike at the top), the hedge is parsed again
        by exact fit and matched again. A hedge of the template whose
        shallow parse was mostly corrected so on earlier pages is parsed
        by exact fit first (see :meth:`.Compiled.exact_first`): the same
        result, as the exact parse finds the shallow one when that one is
        exact (exact fits are shallow fits, tried in the same order),
        without matching a wrong branch deeply first."""
        exact_first = self.c.exact_first(items)
        if exact_first:
            spans = self._parse(items, owner, start, end, self.exact_ends)
            if spans is not None:
                return self._take_all(items, owner, spans, env)
        spans = self._shallow_parse(items, owner, start, end)
        if spans is None:
            self.misfits += 1
            return self.lenient(items, owner, start, end, env)
        ambiguous = self.ambiguous
        state = (self.misfits, self.explained)
        local: Env = {}
        checking = self.checking
        if ambiguous:
            self.checking = CHECKED_LEVELS
        weight = self._take_all(items, owner, spans, local)
        self.checking = checking
        corrected = False
        if ambiguous and self.misfits > state[0]:
            exact = self._parse(items, owner, start, end, self.exact_ends)
            if exact is None:
                exact = self._unordered(items, owner, start, end)
            if exact is not None and exact != spans:
                self.misfits, self.explained = state
                weight = self._take_all(items, owner, exact, env)
                corrected = True
        if not exact_first:
            self.c.note_search(items, corrected)
        if corrected:
            return weight
        env.update(local)
        return weight

    def _unordered(self, items: list[TNode], owner: Node, start: int, end: int) -> Spans | None:
        """Spans of a hedge of optional elements alike at the top (rows)
        over elements in another order than the template's: each element
        in the first optional, not yet taken, that it fits exactly; None
        unless every item is an optional element, the hedge has no text
        of its own, and every element fits one. The seeds showed their
        rows in an order of their own each (phone, hours, cuisine on one;
        cuisine, phone on the next): the template has an optional row per
        place a kind was seen, and no exact parse of a page in yet another
        order exists, while its shallow parse took the hours for the
        phone."""
        rows = self.c.optional_rows.get(id(items))
        if rows is None:
            return None
        children = owner.children[start:end]
        if any(child.tag == TEXT for child in children):
            return None
        taken: dict[int, int] = {}
        for position, child in enumerate(children, start):
            for index, row in enumerate(rows):
                if index not in taken and self.fits(row, child):
                    taken[index] = position
                    break
        if len(taken) < len(children):
            return None
        return [
            (taken[i], taken[i] + 1) if i in taken else (start, start) for i in range(len(items))
        ]

    def _take_all(self, items: list[TNode], owner: Node, spans: Spans, env: Env) -> float:
        weight = 0.0
        for item, (begin, finish) in zip(items, spans, strict=True):
            weight += self.take(item, owner, begin, finish, env)
        return weight

    def take(self, item: TNode, owner: Node, begin: int, end: int, env: Env) -> float:
        """Extract ``item`` from ``owner.children[begin:end]``."""
        children = owner.children
        if isinstance(item, Elem):
            return self.elem(item, children[begin], env)
        if isinstance(item, Text):
            if children[begin].tag != TEXT:
                self.misfits += 1
                return 0.0
            return self.text(item, children[begin], env)
        if isinstance(item, Opt):
            env[item.uid] = end > begin
            if end > begin:
                self.take(item.child, owner, begin, end, env)
            return 0.0
        if isinstance(item, Set):
            return self._take_set(item, owner, begin, end, env)
        return self._take_blob(item, children[begin:end], env)

    def _take_set(self, item: Set, owner: Node, begin: int, end: int, env: Env) -> float:
        """Each repetition as a hedge of its own; the weight of the best."""
        reps = env.setdefault(item.uid, [])
        best = 0.0
        tags = self.c.tags[item.uid]
        plan = self.c.plans[item.uid]
        for rep_begin, rep_end in self.split_reps(item, owner, begin, end):
            rep_env: Env = {}
            weight = self.hedge(item.children, plan, tags, owner, rep_begin, rep_end, rep_env)
            best = max(best, weight)
            reps.append(rep_env)
        return best

    def _take_blob(self, item: Blob, nodes: list[Node], env: Env) -> float:
        """The nodes kept whole, in comparable form; they count as explained."""
        form: list[Any] = []
        for child in nodes:
            node_form(child, 0, form)
            if child.first_leaf >= 0:
                self.explained += child.last_leaf - child.first_leaf + 1
        env[item.uid] = form
        return 0.0

    def lenient(self, items: list[TNode], owner: Node, start: int, end: int, env: Env) -> float:
        """Align the hedge with ``items`` (see :mod:`._lenient`)."""
        return _lenient.lenient(self, items, owner, start, end, env)
