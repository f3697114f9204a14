// Vite imports a file as text with `?raw` (the page test reads the Worker's dispatch to check its route list).
declare module "*?raw" {
  const text: string;
  export default text;
}
