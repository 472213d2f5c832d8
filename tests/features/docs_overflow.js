// Measures, in pages of the built docs, every place where content runs past the right
// edge of a box that does not scroll: content a reader can neither see nor scroll to.
// Used by test_docs_layout.py: a page it writes holds an iframe as wide as the window
// to check and calls mjrMeasurePages(urls), which opens each page in the frame, measures
// it once its fonts are loaded, and writes the findings into the calling page, as JSON in
// a script element with the id "mjr-overflow", for its dumped DOM to carry out.
//
// A finding is one of:
//   clipped: an element with overflow-x hidden or clip whose content is wider than it;
//   cut:     an element running past the right edge of an ancestor that clips (overflow-x
//            hidden or clip), with no scrolling box between them;
//   page:    an element running past the right edge of the window, with no scrolling box
//            around it (the whole page scrolls sideways, the layout broken).
// An element inside a box that scrolls (overflow-x auto or scroll) is reachable: that box
// is checked in its turn.
"use strict";

const mjrMeasurePages = (function () {
    let win = null;  // the page being measured: its window and document
    let doc = null;
    const SLACK = 1;  // px: rounding of fractional layout

    function describe(element) {
        let name = element.tagName.toLowerCase();
        if (element.id) {
            name += "#" + element.id;
        }
        for (const cls of element.classList) {
            name += "." + cls;
        }
        const parts = [name];
        for (let up = element.parentElement; up && up !== doc.body && parts.length < 4; up = up.parentElement) {
            parts.unshift(up.tagName.toLowerCase() + (up.classList.length ? "." + up.classList[0] : ""));
        }
        const text = (element.textContent || "").replace(/\s+/g, " ").trim().slice(0, 60);
        return {element: parts.join(" > "), text: text};
    }

    function scrolls(style) {
        return style.overflowX === "auto" || style.overflowX === "scroll";
    }

    function clips(style) {
        return style.overflowX === "hidden" || style.overflowX === "clip";
    }

    function shown(element, style) {
        if (style.display === "none" || style.visibility === "hidden" || style.visibility === "collapse") {
            return false;
        }
        const box = element.getBoundingClientRect();
        return box.width > 0 || box.height > 0;
    }

    // The right edge of what an element shows: its box, and, where it lets its content
    // spill (overflow-x visible), that content too.
    function rightEdge(element, style) {
        const box = element.getBoundingClientRect();
        if (style.overflowX !== "visible" || element.scrollWidth === 0) {
            return box.right;
        }
        return Math.max(box.right, box.left + element.clientLeft + element.scrollWidth);
    }

    // The right edge of the inside of a box (its padding box, without a scroll bar).
    function innerRight(element) {
        return element.getBoundingClientRect().left + element.clientLeft + element.clientWidth;
    }

    // Where an element's content must stay visible: the first ancestor that scrolls
    // (null: reachable there), that clips ({kind: "cut"}), or else the window ({kind: "page"}).
    function limitOf(element, root, windowWidth) {
        for (let up = element.parentElement; up; up = up.parentElement) {
            if (up === doc.body || up === root) {
                return {kind: "page", box: root, right: windowWidth};
            }
            const style = win.getComputedStyle(up);
            if (scrolls(style)) {
                return null;
            }
            if (clips(style)) {
                return {kind: "cut", box: up, right: innerRight(up)};
            }
        }
        return {kind: "page", box: root, right: windowWidth};
    }

    function isInline(style) {
        return style.display.startsWith("inline") || style.display === "contents";
    }

    function measure() {
        const root = doc.documentElement;
        const windowWidth = root.clientWidth;
        const findings = [];
        // Every shown element that runs past its limit: how far its box does, and how far
        // its box with the content it lets spill does.
        const past = new Map();
        for (const element of doc.body.querySelectorAll("*")) {
            const style = win.getComputedStyle(element);
            if (!shown(element, style)) {
                continue;
            }
            if (clips(style) && element.scrollWidth > element.clientWidth + SLACK) {
                findings.push(Object.assign({kind: "clipped", by: element.scrollWidth - element.clientWidth},
                                            describe(element)));
            }
            const limit = limitOf(element, root, windowWidth);
            if (limit === null) {
                continue;
            }
            const right = rightEdge(element, style);
            if (right > limit.right + SLACK) {
                past.set(element, {limit: limit, style: style, by: right - limit.right,
                                   boxPast: element.getBoundingClientRect().right > limit.right + SLACK});
            }
        }
        // Reported once, as the outermost element that is itself too wide: a box wider
        // than its limit, or a block whose own text or inline content runs past (a
        // block merely holding a wide block is not).
        const reported = new Set();
        for (const [element, seen] of past) {
            let inside = false;
            for (let up = element.parentElement; up && up !== seen.limit.box; up = up.parentElement) {
                if (reported.has(up)) {
                    inside = true;
                    break;
                }
            }
            if (inside) {
                continue;
            }
            if (!seen.boxPast && Array.from(element.children).some(
                    (child) => past.has(child) && !isInline(past.get(child).style))) {
                continue;  // one of its blocks is the one too wide
            }
            reported.add(element);
            const finding = Object.assign({kind: seen.limit.kind, by: Math.round(seen.by)}, describe(element));
            if (seen.limit.kind === "cut") {
                finding.box = describe(seen.limit.box).element;
            }
            findings.push(finding);
        }
        return {
            window: windowWidth,
            page: {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth},
            findings: findings,
        };
    }

    function loaded(frame, url) {
        return new Promise(function (resolve) {
            frame.onload = resolve;
            frame.src = url;
        });
    }

    // Every page of urls in turn, in the (only) iframe of the calling page.
    return async function (urls) {
        const frame = document.querySelector("iframe");
        const reports = {};
        for (const url of urls) {
            try {
                await loaded(frame, url);
                win = frame.contentWindow;
                doc = win.document;
                await doc.fonts.ready;
                reports[url] = measure();
            } catch (error) {
                reports[url] = {error: String(error)};
            }
        }
        const out = document.createElement("script");
        out.type = "application/json";
        out.id = "mjr-overflow";
        out.textContent = JSON.stringify(reports).replace(/</g, "\\u003c");
        document.body.appendChild(out);
    };
})();
