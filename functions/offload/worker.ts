import { serveTasks } from "../adapters/worker-threads.js";
import { runTask, type CpuMessage } from "./tasks.js";

serveTasks<CpuMessage, unknown>(runTask);
