import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

export interface InfoPageContent {
  title: string;
  text: string;
}

/** The loader of a static information page chosen by its slug. */
export function infoPageLoader(pages: Record<string, InfoPageContent>) {
  return ({ params }: LoaderFunctionArgs) => {
    if (!params.slug || !Object.hasOwn(pages, params.slug)) throw data({ message: "Page not found" }, { status: 404 });
    return pages[params.slug]!;
  };
}

export const infoPageMeta: MetaFunction = ({ data }) => [{ title: data ? `${(data as InfoPageContent).title} · Timbre` : "Timbre" }];

export function InfoPage() {
  const page = useLoaderData<InfoPageContent>();
  return (
    <main id="main" className="page page-narrow">
      <h1>{page.title}</h1>
      <p>{page.text}</p>
      <p>
        <Link to="/app" className="back-link">Back to Timbre</Link>
      </p>
    </main>
  );
}
