/** Renders a search snippet whose matches the store marked with [[…]] or <mark>…</mark>, without HTML injection. */
export function Highlight({ text }: { text: string }) {
  const parts = text.split(/(\[\[.*?\]\]|<mark>.*?<\/mark>|<b>.*?<\/b>)/g);
  return (
    <>
      {parts.map((part, index) => {
        const match = /^(?:\[\[(.*)\]\]|<mark>(.*)<\/mark>|<b>(.*)<\/b>)$/.exec(part);
        if (match) return <mark key={index}>{match[1] ?? match[2] ?? match[3]}</mark>;
        return <span key={index}>{part}</span>;
      })}
    </>
  );
}
