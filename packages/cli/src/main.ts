/**
 * The `ectp` command: subcommand dispatch, help and version.
 * @module
 */
import { closestName } from "@ectp/protocol";
import { EXIT_INTERNAL, EXIT_USAGE, type CliIO, processIO, shownArg } from "./io.js";
import { simulateCommand } from "./simulate.js";

declare const __ECTP_CLI_VERSION__: string;

/** The CLI's version (from its package.json, fixed at build time). */
export const VERSION: string = typeof __ECTP_CLI_VERSION__ === "string" ? __ECTP_CLI_VERSION__ : "0.0.0-dev";

/** Usage text of `ectp`. */
export const USAGE = `Usage: ectp <command> [options]

Commands:
  simulate      simulate a deployment under faults and check invariants [I1]-[I6], [P1], [P3]
  conformance   run the ECTP conformance suite (from @ectp/conformance)

Options:
  -h, --help     show this help (ectp <command> --help, or ectp help <command>, for a command)
  -v, --version  print the version

Run "ectp simulate --help" for the simulator's options.
`;

/**
 * What follows a usage error's one line, instead of the whole usage (which pushed the error off
 * the screen): the form of the command line and where the rest is.
 */
export const USAGE_HINT = `Usage: ectp <command> [options]; run "ectp --help" for the commands`;

/** The commands `ectp` runs. */
const COMMANDS = ["simulate", "conformance"] as const;

/** Shape of the conformance package's CLI entry point. */
type ConformanceModule = { runConformanceCli?: (argv: string[], output: Pick<CliIO, "out" | "err" | "onInterrupt">) => Promise<number> };

async function conformanceCommand(argv: string[], io: CliIO): Promise<number> {
  let mod: ConformanceModule;
  try {
    // A dependency of this package, loaded on demand so that `ectp simulate` never loads the
    // suite; a failed load (in this repository: the suite not built yet) is reported, not thrown,
    // with the status of any package of the CLI not built (bin/ectp.mjs): the arguments are not at fault.
    const name = "@ectp/conformance";
    mod = (await import(name)) as ConformanceModule;
  } catch (e) {
    io.err(
      `ectp conformance: the conformance suite (@ectp/conformance) could not be loaded: ${(e as Error).message}\n` +
        "It is a dependency of @ectp/cli: reinstall @ectp/cli or, in this repository, build it: npx turbo run build --filter=@ectp/conformance\n",
    );
    return EXIT_INTERNAL;
  }
  if (typeof mod.runConformanceCli !== "function") {
    io.err(
      "ectp conformance: @ectp/conformance does not export runConformanceCli(argv); update @ectp/conformance to the version matching this CLI\n",
    );
    return EXIT_INTERNAL;
  }
  return mod.runConformanceCli(argv, io);
}

/**
 * Run the CLI with `argv` (the arguments after the program name) and return the exit
 * status: 0 success, 1 invariant violations (or a failing subcommand), 2 bad arguments, 70 the
 * conformance suite could not be loaded, 74 a report that could not be written, 130 or 143 a
 * command stopped by SIGINT or SIGTERM (the executable also exits 70 for an internal error, 74
 * when its standard output could not be written, and 141 when it was closed). Never calls `process.exit`, so
 * tests can call it directly with a capturing {@link CliIO}.
 */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      io.err(`ectp: missing command\n${USAGE_HINT}\n`);
      return EXIT_USAGE;
    case "help":
      // `ectp help <command>` is `ectp <command> --help`.
      if (rest.length === 1 && (rest[0] === "simulate" || rest[0] === "conformance")) return main([rest[0], "--help"], io);
      if (rest.length === 0) {
        io.out(USAGE);
        return 0;
      }
      io.err(`ectp: help takes one command, simulate or conformance; got ${rest.map((a) => JSON.stringify(shownArg(a))).join(" ")}\n${USAGE_HINT}\n`);
      return EXIT_USAGE;
    case "-h":
    case "--help":
    case "-v":
    case "--version":
      // `ectp --help <command>` is `ectp help <command>`.
      if ((command === "-h" || command === "--help") && rest.length === 1 && (rest[0] === "simulate" || rest[0] === "conformance"))
        return main([rest[0], "--help"], io);
      if (rest.length > 0) {
        const takes = command === "-h" || command === "--help" ? "at most one command, simulate or conformance" : "no arguments";
        io.err(`ectp: ${command} takes ${takes}; got ${rest.map((a) => JSON.stringify(shownArg(a))).join(" ")}\n${USAGE_HINT}\n`);
        return EXIT_USAGE;
      }
      io.out(command === "-v" || command === "--version" ? `${VERSION}\n` : USAGE);
      return 0;
    case "simulate":
      return simulateCommand(rest, io);
    case "conformance":
      return conformanceCommand(rest, io);
    case "--":
      // The end of options before any command: what follows is the command and its arguments.
      return main(rest, io);
    default: {
      // An option before any command (`ectp --quiet simulate`) is not a misspelt command.
      const like = closestName(command, COMMANDS, 2);
      io.err(
        command.startsWith("-")
          ? `ectp: unknown option "${shownArg(command)}"; options go after the command (ectp simulate --help lists them), and ectp itself takes only --help and --version\n${USAGE_HINT}\n`
          : `ectp: unknown command "${shownArg(command)}"; expected simulate or conformance${like !== undefined ? ` (did you mean ${like}?)` : ""}\n${USAGE_HINT}\n`,
      );
      return EXIT_USAGE;
    }
  }
}
