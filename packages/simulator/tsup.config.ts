import { libraryConfig } from "../../tsup.base";

export default libraryConfig();
