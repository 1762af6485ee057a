import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getAuth } from "../lib/session.server.js";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return redirect((await getAuth(request, context)) ? "/app" : "/sign-in");
}
