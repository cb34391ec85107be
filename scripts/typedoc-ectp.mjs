// A local TypeDoc plugin for the ECTP reference, loaded through typedoc.json's "plugin".
//
// - Requirement ids ([C3], [P8], ...) and references to SPEC's numbered sections ("SPEC.md
//   section 4.4", "section 5 of SPEC"; on the SPEC page itself any "section N") become links to
//   their anchors on the SPEC page (option specDocument). An id the SPEC has no anchor for stays
//   text and is reported as a warning naming the id and the page, so the build fails. Text in
//   code spans, code blocks and existing links is left alone.
// - Project documents get the titles of the documentTitles option instead of their path; their
//   page files keep the path-derived names, so links to them keep working.
// - A link to the site's root ("../") names index.html: a directory link does not open from file://.
// - A link to a .proto file (which TypeDoc would copy as a raw media file) goes to that file's
//   section of the "Wire schema (.proto)" page (option wireSchemaDocument), which shows it.
// - protobufjs' per-message namespaces, which hold only `$Properties` and `$Shape`, are folded
//   into their parent as `Msg.$Properties` and `Msg.$Shape` (same page files, no empty pages).
import {
  Application,
  Converter,
  MarkdownEvent,
  normalizePath,
  ParameterType,
  ReflectionKind,
  RendererEvent,
  Slugger,
} from "typedoc";

/** Requirement ids as the SPEC writes them: [V1], [C11], [P8], [E2], [I6]. */
const REQUIREMENT_ID = /\[([VCPEI][1-9][0-9]?)\]/g;
/** A section number: 5, 4.4, 3.8. */
const SECTION = String.raw`\d+(?:\.\d+)*`;
/** "SPEC.md section 4.4", "spec/SPEC section 5", "SPEC 4.1", "section 12 of SPEC.md" (case-sensitive "SPEC"). */
const SPEC_SECTION = new RegExp(
  String.raw`\b(?:spec\/)?SPEC(?:\.md)?\s+(?:section\s+)?(${SECTION})\b|\bsection\s+(${SECTION})\s+of\s+(?:spec\/)?SPEC(?:\.md)?\b`,
  "g",
);
/** On the SPEC page every "section N" is one of its own sections. */
const OWN_SECTION = new RegExp(String.raw`\b[Ss]ection\s+(${SECTION})\b`, "g");

/**
 * The headings of `markdown` outside fenced code, each with the slug TypeDoc gives it on its page.
 * @param {string} markdown
 * @param {ConstructorParameters<typeof Slugger>[0]} sluggerConfiguration
 * @returns {{ text: string, slug: string }[]}
 */
function slugHeadings(markdown, sluggerConfiguration) {
  const slugger = new Slugger(sluggerConfiguration);
  const headings = [];
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) headings.push({ text: heading[1], slug: slugger.slug(heading[1].replace(/`/g, "")) });
  }
  return headings;
}

/**
 * The anchors of the SPEC's markdown: `<a id="c3"></a>` requirement anchors (id -> anchor) and its
 * numbered headings (number -> the slug TypeDoc gives the heading).
 * @param {string} markdown
 * @param {ConstructorParameters<typeof Slugger>[0]} sluggerConfiguration
 */
export function specAnchors(markdown, sluggerConfiguration) {
  const requirements = new Map();
  for (const m of markdown.matchAll(/<a id="([a-z][0-9]+)"><\/a>/g)) requirements.set(m[1].toUpperCase(), m[1]);
  const sections = new Map();
  for (const { text, slug } of slugHeadings(markdown, sluggerConfiguration)) {
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text);
    if (number && !sections.has(number[1])) sections.set(number[1], slug);
  }
  return { requirements, sections };
}

/**
 * Splits `text` into plain pieces and SPEC references:
 * `{ text }` or `{ text, id }` (a requirement id, "C3") or `{ text, section }` ("4.4").
 * @param {string} text
 * @param {boolean} onSpecPage whether a bare "section N" means the SPEC's own section
 */
export function findSpecReferences(text, onSpecPage) {
  const found = [];
  for (const m of text.matchAll(REQUIREMENT_ID)) found.push({ index: m.index, text: m[0], id: m[1] });
  for (const m of text.matchAll(onSpecPage ? OWN_SECTION : SPEC_SECTION)) {
    found.push({ index: m.index, text: m[0], section: m[1] ?? m[2] });
  }
  found.sort((a, b) => a.index - b.index);
  const pieces = [];
  let at = 0;
  for (const f of found) {
    if (f.index < at) continue; // overlaps an earlier reference
    if (f.index > at) pieces.push({ text: text.slice(at, f.index) });
    pieces.push(f.id ? { text: f.text, id: f.id } : { text: f.text, section: f.section });
    at = f.index + f.text.length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

/** Whether an inline HTML token opens (1) or closes (-1) an element named `tag`; 0 otherwise. */
function htmlDepthChange(content, tag) {
  if (new RegExp(`^<${tag}[\\s>]`, "i").test(content)) return /\/>$/.test(content) ? 0 : 1;
  if (new RegExp(`^</${tag}\\s*>`, "i").test(content)) return -1;
  return 0;
}

/**
 * A markdown-it core rule that turns SPEC references in the text of inline tokens into links.
 * `resolve(piece)` returns the href for a reference piece, or undefined to leave it as text.
 * Text inside links (markdown or `<a>`), code spans and `<code>` is never touched; a requirement
 * id right after its own `<a id>` anchor (the SPEC's definition of it) is not linked either.
 * @param {(piece: {id?: string, section?: string}) => string | undefined} resolve
 * @param {() => boolean} onSpecPage
 */
export function specReferenceRule(resolve, onSpecPage) {
  return (state) => {
    for (const block of state.tokens) {
      if (block.type !== "inline" || !block.children) continue;
      block.children = linkChildren(block.children, state.Token, resolve, onSpecPage());
    }
  };
}

function linkChildren(children, Token, resolve, onSpecPage) {
  const out = [];
  let inLink = 0;
  let inCode = 0;
  let definedId; // the id of an <a id> anchor just before, until the next text
  let run = []; // consecutive text and softbreak tokens, matched as one string
  const flush = () => {
    if (run.length > 0) out.push(...linkRun(run, Token, resolve, onSpecPage, definedId));
    if (run.some((t) => t.type === "text" && t.content.trim() !== "")) definedId = undefined;
    run = [];
  };
  for (const token of children) {
    if ((token.type === "text" || token.type === "softbreak") && inLink === 0 && inCode === 0) {
      run.push(token);
      continue;
    }
    flush();
    out.push(token);
    if (token.type === "link_open") inLink++;
    else if (token.type === "link_close") inLink--;
    else if (token.type === "html_inline") {
      inLink += htmlDepthChange(token.content, "a");
      inCode += htmlDepthChange(token.content, "code");
      const anchor = /^<a id="([^"]+)">/.exec(token.content);
      if (anchor) definedId = anchor[1].toUpperCase();
    }
  }
  flush();
  return out;
}

function linkRun(run, Token, resolve, onSpecPage, definedId) {
  const text = run.map((t) => (t.type === "softbreak" ? "\n" : t.content)).join("");
  const pieces = findSpecReferences(text, onSpecPage);
  if (pieces.every((p) => !p.id && !p.section)) return run;
  const out = [];
  const pushText = (s) => {
    const lines = s.split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) out.push(new Token("softbreak", "br", 0));
      if (lines[i] === "") continue;
      const token = new Token("text", "", 0);
      token.content = lines[i];
      out.push(token);
    }
  };
  for (const [i, piece] of pieces.entries()) {
    const isDefinition = i === 0 && piece.id !== undefined && piece.id === definedId;
    const href = (piece.id || piece.section) && !isDefinition ? resolve(piece) : undefined;
    if (href === undefined) {
      pushText(piece.text);
      continue;
    }
    const open = new Token("link_open", "a", 1);
    open.attrSet("href", href);
    out.push(open);
    pushText(piece.text);
    out.push(new Token("link_close", "a", -1));
  }
  return out;
}

/**
 * The anchors of the wire schema page's sections, by the file name each shows: its `## <path>.proto`
 * headings, slugged as TypeDoc slugs them. A file name that two sections share maps to neither.
 * @param {string} markdown
 * @param {ConstructorParameters<typeof Slugger>[0]} sluggerConfiguration
 */
export function protoSectionAnchors(markdown, sluggerConfiguration) {
  const anchors = new Map();
  const shared = new Set();
  for (const { text, slug } of slugHeadings(markdown, sluggerConfiguration)) {
    const file = /(?:^|\/)([^/\s]+\.proto)$/.exec(text)?.[1];
    if (file === undefined) continue;
    if (anchors.has(file)) shared.add(file);
    anchors.set(file, slug);
  }
  for (const file of shared) anchors.delete(file);
  return anchors;
}

/** The file name of a link to a copied media file ending in ".proto" ("../media/testee.proto"), else undefined. */
export function protoMediaFile(href) {
  return /(?:^|\/)media\/([^/#?]+\.proto)$/.exec(href)?.[1];
}

/** A directory link to the site's root ("../", "./#x") with index.html added; other hrefs unchanged. */
export function withIndexPage(href) {
  const m = /^((?:\.\.\/)+|\.\/)(#.*)?$/.exec(href);
  return m ? `${m[1]}index.html${m[2] ?? ""}` : href;
}

/**
 * Folds namespaces that hold only protobufjs' `$Properties` and `$Shape` into their parent,
 * renaming the two to `Msg.$Properties` and `Msg.$Shape` (TypeDoc then gives them the page files
 * they had). Returns how many namespaces it folded.
 * @param {import("typedoc").ProjectReflection} project
 */
export function foldPlainObjectNamespaces(project) {
  let folded = 0;
  for (const ns of project.getReflectionsByKind(ReflectionKind.Namespace)) {
    const children = ns.children ?? [];
    const onlyPlainForms =
      children.length > 0 && children.every((c) => c.name === "$Properties" || c.name === "$Shape");
    if (!onlyPlainForms || ns.comment || ns.documents) continue;
    for (const child of children) child.name = `${ns.name}.${child.name}`;
    // TypeDoc-internal in 0.28 (typedoc is pinned): moves the children to the parent, keeping the
    // project's indexes right, and removes the namespace. References to the two stay linked.
    project.mergeReflections(ns, ns.parent);
    folded++;
  }
  return folded;
}

/** @param {Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: "specDocument",
    help: "[ECTP] The project document requirement ids and 'SPEC section N' link to.",
    type: ParameterType.Path,
  });
  app.options.addDeclaration({
    name: "wireSchemaDocument",
    help: "[ECTP] The project document that shows the .proto files; links to a .proto file go to its section there.",
    type: ParameterType.String,
  });
  app.options.addDeclaration({
    name: "documentTitles",
    help: "[ECTP] Page titles of project documents, by their path (or its end, like spec/SPEC.md).",
    type: ParameterType.Object,
    defaultValue: {},
  });

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    foldPlainObjectNamespaces(context.project);
  });

  /** What the markdown being parsed needs: its page, the SPEC page and the SPEC's anchors. */
  const current = { page: undefined, spec: undefined, anchors: undefined, wireSchema: undefined, protoAnchors: new Map() };
  const links = []; // section links made, checked against the SPEC page's headings at the end
  const warned = new Set(); // each missing anchor is reported once per page

  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    const loader = app.options.getValue("markdownItLoader");
    app.options.setValue("markdownItLoader", (parser) => {
      loader(parser);
      parser.core.ruler.push("ectp_spec_references", specReferenceRule(resolveReference, onSpecPage));
      const linkOpen = parser.renderer.rules.link_open;
      parser.renderer.rules.link_open = (tokens, idx, options, env, self) => {
        const href = tokens[idx].attrGet("href");
        if (href) tokens[idx].attrSet("href", withIndexPage(protoSectionLink(href) ?? href));
        return linkOpen ? linkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
      };
    });
  });

  // Before the theme uses any name (navigation, search, titles) but after the router gave
  // every page its file, so titles change and page files do not.
  app.renderer.on(
    RendererEvent.BEGIN,
    (event) => {
      const project = event.project;
      const documents = project.getReflectionsByKind(ReflectionKind.Document);
      /** The project document whose file is `path` or ends with "/" + `path`. */
      const documentAt = (path) => {
        const wanted = normalizePath(path);
        const found = documents.filter((doc) => {
          const file = project.files.getReflectionPath(doc);
          return file === wanted || file?.endsWith(`/${wanted}`);
        });
        return found.length === 1 ? found[0] : undefined;
      };
      for (const [file, title] of Object.entries(app.options.getValue("documentTitles"))) {
        const doc = documentAt(file);
        if (doc) doc.name = title;
        else app.logger.warn(`documentTitles: ${file} is not one project document`);
      }
      const wireSchemaFile = app.options.getValue("wireSchemaDocument");
      if (wireSchemaFile) {
        const doc = documentAt(wireSchemaFile);
        if (doc) {
          current.wireSchema = doc;
          const markdown = doc.content.map((part) => part.text).join("");
          current.protoAnchors = protoSectionAnchors(markdown, app.options.getValue("sluggerConfiguration"));
        } else app.logger.warn(`wireSchemaDocument: ${wireSchemaFile} is not one project document`);
      }
      const specFile = app.options.getValue("specDocument");
      if (!specFile) return;
      const spec = documentAt(specFile);
      if (!spec) {
        app.logger.error(`specDocument: ${specFile} is not a project document`);
        return;
      }
      const markdown = spec.content.map((part) => part.text).join("");
      current.spec = spec;
      current.anchors = specAnchors(markdown, app.options.getValue("sluggerConfiguration"));
    },
    100,
  );

  app.renderer.on(
    MarkdownEvent.PARSE,
    (event) => {
      current.page = event.page;
    },
    100,
  );

  /** The link to a .proto file's section of the wire schema page, for a link to its media copy; else undefined. */
  function protoSectionLink(href) {
    const file = protoMediaFile(href);
    const anchor = file === undefined ? undefined : current.protoAnchors.get(file);
    if (anchor === undefined || !current.page || !current.wireSchema) return undefined;
    return `${app.renderer.router.relativeUrl(current.page.model, current.wireSchema)}#${anchor}`;
  }

  function onSpecPage() {
    return current.spec !== undefined && current.page?.model === current.spec;
  }

  function resolveReference(piece) {
    const { page, spec, anchors } = current;
    if (!spec || !page) return undefined;
    const anchor = piece.id ? anchors.requirements.get(piece.id) : anchors.sections.get(piece.section);
    if (anchor === undefined) {
      const what = piece.id ? `requirement id [${piece.id}]` : `section ${piece.section}`;
      const warning = `${page.url}: ${what} has no anchor on the SPEC page (${app.options.getValue("specDocument")})`;
      if (!warned.has(warning)) app.logger.warn(warning);
      warned.add(warning);
      return undefined;
    }
    if (piece.section) links.push({ page: page.url, section: piece.section, anchor });
    return `${app.renderer.router.relativeUrl(page.model, spec)}#${anchor}`;
  }

  app.renderer.on(RendererEvent.END, () => {
    const slugger = current.spec && app.renderer.router?.getSlugger(current.spec);
    for (const link of slugger ? links : []) {
      if (!slugger.hasAnchor(link.anchor)) {
        app.logger.warn(`${link.page}: section ${link.section} links to #${link.anchor}, which the SPEC page lacks`);
      }
    }
    links.length = 0;
  });
}
