import { serveTasks } from "../adapters/worker-threads.js";
import { runPasswordTask, type PasswordTask } from "./passwords-work.js";

serveTasks<PasswordTask, string | boolean>(runPasswordTask);
