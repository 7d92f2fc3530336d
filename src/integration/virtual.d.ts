declare module 'virtual:tagsite/options' {
  const options: import('./options.ts').ResolvedOptions;
  export default options;
}

declare module 'virtual:tagsite/first-paint' {
  /** The script listing pages inline in <head> (src/outputs/first-paint.ts). */
  const script: string;
  export default script;
}
