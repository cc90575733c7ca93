/** The kinds of route the mock host serves (types.ts and the script definitions both name them). */
export type RouteKind = 'lifecycle' | 'tool' | 'facts';
