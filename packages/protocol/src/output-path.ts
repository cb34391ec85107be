// The check of an output file's path before a long run (`ectp conformance --junit/--report`,
// `ectp simulate --report`), so that a run is not thrown away for a typo in a path.
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readlinkSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { EctpError, describeValue, thrownMessage } from "./errors.js";

/** Options of {@link outputPathProblem}. */
export interface OutputPathOptions {
  /**
   * Whether the write creates missing directories (with {@link makeDirectories}); default false.
   * A symbolic link's target is always checked without: a write through a link creates no directory.
   */
  createsDirectories?: boolean | undefined;
}

/**
 * Why `file` cannot be written, or undefined when it can. The path is checked as given, as the
 * write will open it (`missing/../x.json` needs `missing`, which a lexical `resolve()` would hide).
 * Refused: an empty or blank path, "-" (a file of that name, not standard output), a path ending
 * in a separator or naming a directory, a file that is not writable, and a dangling symbolic link
 * whose target cannot be written. Where the file or a missing directory must be created, the nearest existing directory is
 * tried by creating a probe of that kind in it and removing it at once, because a directory that
 * `access()` calls writable may still take no new entries (`/proc`: the write failed with ENOENT
 * only after the whole run). Nothing is left behind.
 * @param file - The path the caller will write.
 * @param options - Whether the write creates missing directories; left out (or `undefined`), it does not.
 * @returns What is wrong and what to do, a phrase to follow `cannot write <file>: `, or undefined.
 * @throws EctpError(INVALID_ARGUMENT) when `file` is not a string, or `options` is not an object
 *   (`null` and arrays included): a fault of the calling code, not of the path.
 */
export function outputPathProblem(file: string, options: OutputPathOptions = {}): string | undefined {
  if (typeof file !== "string") throw new EctpError("INVALID_ARGUMENT", `outputPathProblem: file must be a path (a string); got ${describeValue(file)}`);
  if (options === null || typeof options !== "object" || Array.isArray(options))
    throw new EctpError("INVALID_ARGUMENT", `outputPathProblem: options must be an object { createsDirectories? }; got ${describeValue(options)}`);
  // An empty path would probe the current directory and pass, to fail only at the write (ENOENT).
  if (file.trim() === "") return "the path is empty or blank; name a file";
  if (file === "-") return 'it would be a file named "-", not standard output; name a file';
  // A trailing separator names a directory (dirname() would drop it and check the parent instead).
  if (file.endsWith("/") || file.endsWith(sep)) return "it ends in a path separator, so it names a directory; name a file";
  try {
    if (statSync(file).isDirectory()) return "it is a directory; name a file in it";
    accessSync(file, constants.W_OK);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: some directory on the way is a file; the walk below reaches it and names it.
    if (code !== "ENOENT" && code !== "ENOTDIR") return thrownMessage(e);
  }
  // A dangling symbolic link: the write creates its target, in the target's directory, which it
  // does not create (a chain of links ends, or stat above says ELOOP).
  let target: string | undefined;
  try {
    if (lstatSync(file).isSymbolicLink()) target = resolve(dirname(file), readlinkSync(file));
  } catch {
    // no such entry: the file itself is created below
  }
  if (target !== undefined) {
    const problem = outputPathProblem(target);
    return problem === undefined ? undefined : `it is a symbolic link to ${target}, which cannot be written: ${problem}`;
  }
  // The nearest existing directory must be writable and take new entries; a file found on the way
  // up is named, and a missing directory is refused unless the write creates it.
  let dir = dirname(file);
  let missing: string | undefined; // The first directory the write would create, if any.
  for (;;) {
    try {
      if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
      if (missing !== undefined && options.createsDirectories !== true) return `directory ${dirname(file)} does not exist`;
      accessSync(dir, constants.W_OK);
      return probeProblem(dir, missing);
    } catch (e) {
      // ENOTDIR: a file stands higher up; the walk reaches it and names it.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return thrownMessage(e);
    }
    const up = dirname(dir);
    if (up === dir) return `no directory of ${file} exists`;
    missing = dir;
    dir = up;
  }
}

/**
 * Create a probe in the existing directory `dir` and remove it: a file, or, when the write must
 * first create directory `missing` there, a directory. Why it could not be created, or undefined.
 */
function probeProblem(dir: string, missing: string | undefined): string | undefined {
  let probe: string;
  try {
    if (missing !== undefined) probe = mkdtempSync(join(dir, ".ectp-output-probe-"));
    else {
      probe = join(dir, `.ectp-output-probe-${process.pid}-${randomBytes(6).toString("hex")}`);
      closeSync(openSync(probe, "wx"));
    }
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? thrownMessage(e);
    return missing !== undefined
      ? `directory ${missing} does not exist and cannot be created: ${dir} takes no new directories (${why})`
      : `${dir} takes no new files (${why})`;
  }
  try {
    if (missing !== undefined) rmdirSync(probe);
    else unlinkSync(probe);
  } catch {
    // Created, so the path can be written; a probe that cannot be removed is not the run's failure.
  }
  return undefined;
}

/**
 * Create directory `dir` and its missing parents one at a time, for a path that
 * {@link outputPathProblem} passed with `createsDirectories`. Node 20's
 * `mkdirSync(dir, { recursive: true })` spins forever at full CPU, deaf to SIGTERM, where a parent
 * cannot hold directories (`/proc/x/y`); a plain `mkdirSync` fails there with ENOENT. A path through
 * `..` (`missing/..`) exists once its first part is made, so each is made only if still missing.
 * @param dir - The directory to create, as the write will name it.
 * @throws EctpError(INVALID_ARGUMENT) when `dir` is not a string; what `mkdirSync` throws where a
 *   directory cannot be created.
 */
export function makeDirectories(dir: string): void {
  if (typeof dir !== "string") throw new EctpError("INVALID_ARGUMENT", `makeDirectories: dir must be a path (a string); got ${describeValue(dir)}`);
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const d = missing[i] as string;
    if (!existsSync(d)) mkdirSync(d);
  }
}
