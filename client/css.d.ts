/** Stylesheets imported for their side effect: esbuild emits them beside the chunk that imports them. */
declare module '*.css'
