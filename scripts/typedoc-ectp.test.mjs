// Tests of the local TypeDoc plugin (scripts/typedoc-ectp.mjs): its text helpers, and one TypeDoc
// run over a small fixture project whose output pages are read back.
// Run from the repository root: npx vitest run scripts/typedoc-ectp.test.mjs
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, Logger, LogLevel } from "typedoc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingSpecAnchors } from "./docs.mjs";
import { findSpecReferences, protoMediaFile, protoSectionAnchors, withIndexPage } from "./typedoc-ectp.mjs";

const plugin = fileURLToPath(new URL("./typedoc-ectp.mjs", import.meta.url));
const repositoryOptions = JSON.parse(readFileSync(new URL("../typedoc.json", import.meta.url), "utf8"));

describe("findSpecReferences", () => {
  it("finds requirement ids and SPEC section references, a line break included", () => {
    expect(findSpecReferences("per [C3] (SPEC.md section\n4.4), [P8]; section 5 of SPEC", false)).toEqual([
      { text: "per " },
      { text: "[C3]", id: "C3" },
      { text: " (" },
      { text: "SPEC.md section\n4.4", section: "4.4" },
      { text: "), " },
      { text: "[P8]", id: "P8" },
      { text: "; " },
      { text: "section 5 of SPEC", section: "5" },
    ]);
  });

  it("takes a bare 'section N' as SPEC's own only on the SPEC page", () => {
    expect(findSpecReferences("see section 3.7", false)).toEqual([{ text: "see section 3.7" }]);
    expect(findSpecReferences("see section 3.7", true)).toEqual([
      { text: "see " },
      { text: "section 3.7", section: "3.7" },
    ]);
  });

  it("leaves other documents' sections and other bracketed words alone", () => {
    const text = "TESTEE-PROTOCOL.md section 7, spec section 2, [X1], [c3], [C3a]";
    expect(findSpecReferences(text, false)).toEqual([{ text }]);
  });
});

describe("withIndexPage", () => {
  it("names index.html in a directory link to the site's root, keeping its anchor", () => {
    expect(withIndexPage("../")).toBe("../index.html");
    expect(withIndexPage("../../#commands")).toBe("../../index.html#commands");
    expect(withIndexPage("./")).toBe("./index.html");
    expect(withIndexPage("../modules/x.html")).toBe("../modules/x.html");
    expect(withIndexPage("https://example.com/")).toBe("https://example.com/");
  });
});

describe("protoSectionAnchors and protoMediaFile", () => {
  it("maps each .proto heading's file name to its slug, dropping a name two headings share, and ignores fenced lines", () => {
    const markdown = ["# Wire schema", "## spec/proto/ectp/v1/ectp.proto", "```proto", "## not/a/heading.proto", "```", "## a/x.proto", "## b/x.proto"].join("\n");
    expect(protoSectionAnchors(markdown, { lowercase: true })).toEqual(new Map([["ectp.proto", "specprotoectpv1ectpproto"]]));
  });

  it("names the .proto file of a link to its media copy, and nothing else", () => {
    expect(protoMediaFile("../media/testee.proto")).toBe("testee.proto");
    expect(protoMediaFile("media/testee.proto")).toBe("testee.proto");
    expect(protoMediaFile("../media/testee.proto#x")).toBeUndefined();
    expect(protoMediaFile("../spec/proto/testee.proto")).toBeUndefined();
    expect(protoMediaFile("../media/readme.md")).toBeUndefined();
  });
});

/** A logger that keeps what TypeDoc reports. */
class KeepingLogger extends Logger {
  messages = [];
  log(message, level) {
    super.log(message, level);
    this.messages.push({ level, message });
  }
}

const FIXTURE = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "nodenext" } }),
  "README.md": "# Fixture\n\nThe root page.\n",
  "SPEC.md": [
    "# Fixture spec",
    "",
    "## 1. Scope",
    "",
    '<a id="c1"></a>**[C1] First rule.** It holds with section 2.',
    "",
    "## 2. Budgets",
    "",
    "### 2.1 Per item",
    "",
    '<a id="c3"></a>**[C3] Wait budget.** As [C1] says (section 1).',
    "",
  ].join("\n"),
  "guide.md":
    "# Guide\n\nBack to the [Root README](./README.md); the rule is [C3]. The [one schema](one.proto), the [other](two.proto).\n",
  "one.proto": 'syntax = "proto3";\n',
  "two.proto": 'syntax = "proto3";\n',
  "schema.md": ["# Schema", "", "## proto/a/one.proto", "", "## proto/b/two.proto", "", "## proto/c/two.proto", ""].join("\n"),
  "index.ts": [
    "/**",
    " * Fixture module: a budget per [C3] (SPEC.md section 2.1), not `[C3]` in code, nor in",
    " * {@link budget | the budget [C1]}; an id the spec lacks: [C9]; a section it lacks: SPEC section 9.",
    " *",
    " * ```ts",
    " * const rule = \"[C3]\"; // SPEC section 2",
    " * ```",
    " * @module",
    " */",
    "",
    "/** The wait budget in ms [C3]. */",
    "export const budget = 60_000;",
    "",
    "/** A failure of the fixture. */",
    "export class FixtureError extends Error {",
    "  /** Its own code. */",
    "  readonly code = 1;",
    "}",
    "",
    "/** Generated wire code. */",
    "export namespace wire {",
    "  /** A message. */",
    "  export class Hello {",
    "    /** A field. */",
    "    a?: number;",
    "  }",
    "  export namespace Hello {",
    "    /** The plain-object form. */",
    "    export interface $Properties {",
    "      /** A field. */",
    "      a?: number;",
    "    }",
    "    /** The shape. */",
    "    export type $Shape = Hello.$Properties;",
    "  }",
    "}",
    "",
  ].join("\n"),
};

describe("the plugin in a TypeDoc run", () => {
  let dir;
  let out;
  let logger;
  /** @type {Map<string, string>} page -> HTML */
  const pages = new Map();
  const page = (name) => {
    const html = pages.get(name);
    if (html === undefined) throw new Error(`no page ${name} among ${[...pages.keys()].join(", ")}`);
    return html;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "typedoc-ectp-"));
    for (const [name, text] of Object.entries(FIXTURE)) writeFileSync(join(dir, name), text);
    out = join(dir, "site");
    const app = await Application.bootstrapWithPlugins(
      {
        name: "Fixture",
        plugin: [plugin],
        entryPoints: [join(dir, "index.ts")],
        tsconfig: join(dir, "tsconfig.json"),
        readme: join(dir, "README.md"),
        projectDocuments: [join(dir, "SPEC.md"), join(dir, "guide.md"), join(dir, "schema.md")],
        specDocument: join(dir, "SPEC.md"),
        wireSchemaDocument: "schema.md",
        documentTitles: { "SPEC.md": "Specification (SPEC)", "guide.md": "The guide" },
        markdownItOptions: { html: true, linkify: false },
        disableSources: true,
        // The repository's choice (typedoc.json), so that this run proves it.
        excludeExternals: repositoryOptions.packageOptions.excludeExternals,
        logLevel: "Warn",
      },
      [],
    );
    logger = new KeepingLogger();
    logger.level = LogLevel.Warn;
    app.logger = logger;
    const project = await app.convert();
    await app.generateDocs(project, out);
    for (const name of readdirSync(out, { recursive: true })) {
      if (name.endsWith(".html")) pages.set(name.split("\\").join("/"), readFileSync(join(out, name), "utf8"));
    }
  }, 60_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("links requirement ids and SPEC section references in doc comments to the SPEC page's anchors", () => {
    const html = page("modules/index.html");
    expect(html).toContain('<a href="../documents/SPEC.html#c3">[C3]</a>');
    expect(html).toContain('<a href="../documents/SPEC.html#21-per-item">SPEC.md section 2.1</a>');
    expect(page("variables/index.budget.html")).toContain('<a href="../documents/SPEC.html#c3">[C3]</a>');
  });

  it("leaves ids in code spans, code blocks and existing links as text", () => {
    const html = page("modules/index.html");
    expect(html).toContain("<code>[C3]</code>");
    expect(html).not.toMatch(/<pre>(?:(?!<\/pre>).)*<a href/s);
    expect(html).toMatch(/>the budget \[C1\]<\/a>/);
  });

  it("warns, naming the id or section and the page, where the SPEC has no anchor, and links nothing", () => {
    const warnings = logger.messages.filter((m) => m.level === LogLevel.Warn).map((m) => m.message);
    expect(warnings).toContain("modules/index.html: requirement id [C9] has no anchor on the SPEC page (" + join(dir, "SPEC.md") + ")");
    expect(warnings).toContain("modules/index.html: section 9 has no anchor on the SPEC page (" + join(dir, "SPEC.md") + ")");
    expect(page("modules/index.html")).toContain("an id the spec lacks: [C9];");
  });

  it("links ids and own sections on the SPEC page within the page, but not an id at its own definition", () => {
    const html = page("documents/SPEC.html");
    expect(html).toContain('<a id="c3"></a><strong>[C3] Wait budget.</strong>');
    expect(html).toContain('As <a href="#c1">[C1]</a> says (<a href="#1-scope">section 1</a>)');
    expect(html).toContain('with <a href="#2-budgets">section 2</a>.');
  });

  it("links ids in project documents", () => {
    expect(page("documents/guide.html")).toContain('the rule is <a href="SPEC.html#c3">[C3]</a>');
  });

  it("gives documents the configured titles and keeps their page files", () => {
    expect(page("documents/SPEC.html")).toContain("<title>Specification (SPEC) | ");
    expect(page("documents/guide.html")).toContain("<title>The guide | ");
  });

  it("sends a link to a .proto file to its section of the wire schema page; a file name two sections share stays a file link", () => {
    expect(page("documents/guide.html")).toContain('<a href="schema.html#protoaoneproto">one schema</a>');
    expect(page("documents/guide.html")).toContain('<a href="../media/two.proto">other</a>');
    expect(page("documents/schema.html")).toContain('id="protoaoneproto"');
  });

  it("makes a link to the root README name index.html, not the directory", () => {
    expect(page("documents/guide.html")).toContain('<a href="../index.html">Root README</a>');
  });

  it("folds a namespace of only $Properties and $Shape into its parent, keeping their pages", () => {
    expect(pages.has("modules/index.wire.Hello.html")).toBe(false);
    expect(pages.has("interfaces/index.wire.Hello._Properties.html")).toBe(true);
    expect(pages.has("types/index.wire.Hello._Shape.html")).toBe(true);
    expect(page("modules/index.wire.html")).toContain(">Hello.$Properties<");
  });

  it("shows a class's own members but not those it inherits from Node's Error (typedoc.json excludeExternals)", () => {
    const html = page("classes/index.FixtureError.html");
    expect(html).toContain('id="code"');
    expect(html).not.toContain("captureStackTrace");
    expect(html).not.toContain('id="stack"');
  });

  it("the docs step's check finds every written SPEC link's anchor, and a missing one", () => {
    expect(missingSpecAnchors(out, "documents/SPEC.html").missing).toEqual([]);
    const spec = join(out, "documents", "SPEC.html");
    writeFileSync(spec, page("documents/SPEC.html").replace('<a id="c3"></a>', ""));
    const { checked, missing } = missingSpecAnchors(out, "documents/SPEC.html");
    expect(checked).toBeGreaterThan(0);
    expect(missing).toContain('modules/index.html: href="../documents/SPEC.html#c3"');
    expect(missing).toContain('documents/guide.html: href="SPEC.html#c3"');
  });
});
