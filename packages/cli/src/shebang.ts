/**
 * The first line of the `ectp` executable (tsup.config.ts writes it): Node with
 * {@link SIMULATION_NODE_FLAGS}, so `ectp simulate` runs with the V8 settings its
 * memory and time figures are measured with. `env -S` splits the flags into separate arguments.
 * @module
 */
import { SIMULATION_NODE_FLAGS } from "@ectp/simulator";

/** `#!/usr/bin/env -S node <flags>`. */
export const BIN_SHEBANG = `#!/usr/bin/env -S node ${SIMULATION_NODE_FLAGS.join(" ")}`;
