import { serveTasks } from "../../media/workers/pool.js";
import type { CpuMessage } from "../../platform/offload/index.js";
import { runTask } from "./tasks.js";

serveTasks<CpuMessage, unknown>(runTask);
