// Placeholder until the NIXL issue lands: NIXL is never required to install.
console.log("@ectp/nixl-native: addon build not implemented yet; skipping");
