import { libraryConfig } from "../../tsup.base";

// import.meta.url is used to find the native addon relative to this package.
export default libraryConfig({ shims: true });
