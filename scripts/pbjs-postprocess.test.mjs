// The declaration step of scripts/lib/pbjs-postprocess.mjs that lets every optional field of the
// generated message types take `undefined` (see cleanDeclarations): what it rewrites, what it leaves,
// and that it refuses pbts output it no longer recognises (rather than silently doing nothing).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { optionalFieldsTakeUndefined } from "./lib/pbjs-postprocess.mjs";

describe("optionalFieldsTakeUndefined", () => {
  it("adds undefined to `f?: (T|null);` fields, messages, scalars and repeated ones, and leaves the rest", () => {
    const dts = [
      "        interface $Properties {",
      "            sizeBytes?: (number|null);",
      "            key?: (ectp.v1.ItemKey.$Properties|null);",
      "            items?: (ectp.v1.IItemDescriptor[]|null);",
      "            $unknowns?: Uint8Array[];",
      "        }",
      "        constructor(properties?: ectp.v1.Hello.$Properties);",
    ].join("\n");
    expect(optionalFieldsTakeUndefined(dts).split("\n")).toEqual([
      "        interface $Properties {",
      "            sizeBytes?: (number|null|undefined);",
      "            key?: (ectp.v1.ItemKey.$Properties|null|undefined);",
      "            items?: (ectp.v1.IItemDescriptor[]|null|undefined);",
      "            $unknowns?: Uint8Array[];",
      "        }",
      "        constructor(properties?: ectp.v1.Hello.$Properties);",
    ]);
  });

  it("refuses output with no field of that form (pbts changed how it types optional fields)", () => {
    expect(() => optionalFieldsTakeUndefined("        sizeBytes?: number;\n")).toThrow(/no longer types optional fields/);
  });

  it("the committed declarations went through it: no optional field refuses undefined", () => {
    for (const file of ["packages/protocol/src/gen/ectp.d.ts", "conformance/src/gen/testee.d.ts"]) {
      const text = readFileSync(new URL(`../${file}`, import.meta.url), "utf8");
      expect(text).toMatch(/\?: \([^()]*\|null\|undefined\);$/m);
      expect(text).not.toMatch(/\?: \([^()]*\|null\);$/m);
    }
  });
});
