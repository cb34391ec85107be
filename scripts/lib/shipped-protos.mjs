// The pack check's test of a package's proto/ folder: is it spec/proto's tree as it is, and can a
// code generator take it on its own?
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { protoFilesUnder } from "./proto-files.mjs";

/**
 * What is wrong with `shipped`, a package's copy of `specProto`/`subdir` (the copy keeps `subdir` in
 * its paths, as spec/proto does), or undefined when nothing is. It must carry every .proto file of
 * that folder byte for byte and no other, carry every file its files import, and build with
 * `buf build` (the binary at `buf`; the image is written to `imageFile`). A copy that cannot be read
 * is a problem too, named as such.
 */
export function shippedProtosProblem({ specProto, subdir, shipped, buf, imageFile }) {
  const want = protoFilesUnder(join(specProto, subdir)).map((f) => `${subdir}/${f}`);
  const problems = [];
  try {
    const got = protoFilesUnder(shipped);
    const differ = want.filter((f) => !got.includes(f) || !readFileSync(join(shipped, f)).equals(readFileSync(join(specProto, f))));
    const extra = got.filter((f) => !want.includes(f));
    const unresolved = got.flatMap((f) =>
      [...readFileSync(join(shipped, f), "utf8").matchAll(/^import\s+"([^"]+)";/gm)].map((m) => m[1]).filter((i) => !got.includes(i)).map((i) => `${f} imports ${i}`),
    );
    if (differ.length > 0) problems.push(`missing or not as in spec/proto: ${differ.join(", ")}`);
    if (extra.length > 0) problems.push(`not in spec/proto: ${extra.join(", ")}`);
    if (unresolved.length > 0) problems.push(`imports it does not carry: ${unresolved.join("; ")}`);
  } catch (cause) {
    // The folder, or a file in it (a folder named x.proto, a file it may not read).
    return `its proto/ could not be read: ${cause.message}`;
  }
  const built = spawnSync(buf, ["build", shipped, "-o", imageFile], { encoding: "utf8", timeout: 120_000 });
  if (built.status !== 0) {
    const output = `${built.stdout ?? ""}${built.stderr ?? ""}${built.error?.message ?? ""}`;
    problems.push(`buf build of it failed (exit ${built.status ?? built.signal}): ${output.trim().split("\n").slice(0, 3).join(" / ")}`);
  }
  return problems.length > 0 ? problems.join("; ") : undefined;
}
