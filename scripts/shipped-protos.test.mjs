// The pack check's test of a package's proto/ folder (scripts/lib/shipped-protos.mjs), on a small
// spec tree of its own: a true copy passes, and each way a copy can be wrong is named.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { shippedProtosProblem } from "./lib/shipped-protos.mjs";

const buf = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".bin", "buf");
const work = mkdtempSync(join(tmpdir(), "ectp-shipped-protos-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ITEM = 'syntax = "proto3";\npackage demo.v1;\nmessage Item { string id = 1; }\n';
const ENVELOPE = 'syntax = "proto3";\npackage demo.v1;\nimport "demo/v1/item.proto";\nmessage Envelope { Item item = 1; }\n';

let trees = 0;
/** A spec/proto of `files` (path under it -> text) and a package's proto/ copied from it, then changed by `change`. */
function fixture(files, change = () => {}) {
  const dir = join(work, `t${trees++}`);
  const specProto = join(dir, "spec");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(specProto, path)), { recursive: true });
    writeFileSync(join(specProto, path), text);
  }
  const shipped = join(dir, "shipped");
  cpSync(specProto, shipped, { recursive: true });
  change(shipped);
  return { specProto, subdir: "demo/v1", shipped, buf, imageFile: join(dir, "image.binpb") };
}
const demo = { "demo/v1/item.proto": ITEM, "demo/v1/envelope.proto": ENVELOPE };

describe("shippedProtosProblem", () => {
  it("passes a true copy", () => {
    expect(shippedProtosProblem(fixture(demo))).toBeUndefined();
  });

  it("names a missing file, the import it leaves unresolved, and buf's failure", () => {
    const problem = shippedProtosProblem(fixture(demo, (shipped) => rmSync(join(shipped, "demo/v1/item.proto"))));
    expect(problem).toContain("missing or not as in spec/proto: demo/v1/item.proto");
    expect(problem).toContain("imports it does not carry: demo/v1/envelope.proto imports demo/v1/item.proto");
    expect(problem).toMatch(/buf build of it failed \(exit \d+\): .*imported file does not exist/);
  });

  it("names a file that differs from the spec's, even by one byte buf accepts", () => {
    const problem = shippedProtosProblem(fixture(demo, (shipped) => writeFileSync(join(shipped, "demo/v1/item.proto"), `${ITEM}\n`)));
    expect(problem).toBe("missing or not as in spec/proto: demo/v1/item.proto");
  });

  it("names a file the spec does not have", () => {
    const problem = shippedProtosProblem(fixture(demo, (shipped) => writeFileSync(join(shipped, "demo/v1/extra.proto"), 'syntax = "proto3";\npackage demo.v1;\n')));
    expect(problem).toBe("not in spec/proto: demo/v1/extra.proto");
  });

  it("names a copy that cannot be read", () => {
    const problem = shippedProtosProblem(fixture(demo, (shipped) => rmSync(shipped, { recursive: true })));
    expect(problem).toMatch(/^its proto\/ could not be read: ENOENT/);
  });

  it("names a copy holding a file it cannot read (a folder named like a .proto file)", () => {
    const problem = shippedProtosProblem(fixture(demo, (shipped) => mkdirSync(join(shipped, "demo/v1/odd.proto"))));
    expect(problem).toMatch(/^its proto\/ could not be read: EISDIR/);
  });

  it("names buf's failure when the copy is true but does not compile", () => {
    const problem = shippedProtosProblem(fixture({ "demo/v1/item.proto": 'syntax = "proto3";\npackage demo.v1;\nmessage Item { Missing m = 1; }\n' }));
    expect(problem).toMatch(/^buf build of it failed \(exit \d+\): .*Missing/);
  });

  it("names a buf that cannot be run", () => {
    const problem = shippedProtosProblem({ ...fixture(demo), buf: join(work, "no-such-buf") });
    expect(problem).toMatch(/^buf build of it failed \(exit null\): .*ENOENT/);
  });
});
