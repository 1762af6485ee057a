// Every entry point (functions/handlers) plugs the CPU tasks into runCpu; so does each test file.
import "../../functions/handlers/offload/index.js";
