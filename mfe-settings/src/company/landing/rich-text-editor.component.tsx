import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorContent, getSchema, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { DOMParser as ProseMirrorParser } from '@tiptap/pm/model';
import StarterKit from '@tiptap/starter-kit';
import { RICH_TEXT_RULES } from '@whistle/contracts';
import { trustedDescription } from './sanitize-description';

export interface RichTextEditorProps {
  /** Id of the visible label, which names the editing area. */
  labelId: string;
  /** Id of the help text. */
  describedById?: string;
  initialHtml: string;
  onChange(html: string): void;
}

/**
 * Only what the server keeps (RICH_TEXT_RULES): paragraphs, breaks, bold, italic, underline, lists, links and
 * headings 2–4. Code, quotes, strike-through and rules are left out, so nothing typed is lost on save.
 */
const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3, 4] },
    blockquote: false,
    code: false,
    codeBlock: false,
    horizontalRule: false,
    strike: false,
    link: {
      openOnClick: false,
      autolink: true,
      protocols: ['http', 'https', 'mailto'],
      defaultProtocol: 'https',
      HTMLAttributes: { rel: RICH_TEXT_RULES.linkRel, target: RICH_TEXT_RULES.linkTarget },
      isAllowedUri: (url) => RICH_TEXT_RULES.linkProtocols.test(url),
    },
  }),
];

/**
 * The editor's first document, from the saved HTML. Not handed to TipTap as a string: it would parse it with a
 * plain DOMParser call, which the staff pages' Trusted Types refuse; parsed here through the sanitising policy.
 */
function initialDocument(html: string) {
  const body = new DOMParser().parseFromString(trustedDescription(html) as string, 'text/html').body;
  return ProseMirrorParser.fromSchema(getSchema(extensions)).parse(body).toJSON();
}

type Mark = 'bold' | 'italic' | 'underline' | 'link';
type Block = 'bulletList' | 'orderedList';

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation('settings');
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      link: current.isActive('link'),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
    }),
  });
  const chain = () => editor.chain().focus();
  const toggleLink = () => {
    if (active.link) return void chain().unsetLink().run();
    const url = window.prompt(t('customization.editor.linkPrompt'))?.trim();
    if (url) chain().extendMarkRange('link').setLink({ href: url }).run();
  };
  const buttons: Array<{ key: Mark | Block | 'h2' | 'h3'; run(): void }> = [
    { key: 'bold', run: () => chain().toggleBold().run() },
    { key: 'italic', run: () => chain().toggleItalic().run() },
    { key: 'underline', run: () => chain().toggleUnderline().run() },
    { key: 'h2', run: () => chain().toggleHeading({ level: 2 }).run() },
    { key: 'h3', run: () => chain().toggleHeading({ level: 3 }).run() },
    { key: 'bulletList', run: () => chain().toggleBulletList().run() },
    { key: 'orderedList', run: () => chain().toggleOrderedList().run() },
    { key: 'link', run: toggleLink },
  ];
  return (
    <div className="settings-editor__toolbar" role="toolbar" aria-label={t('customization.editor.toolbar')}>
      {buttons.map((button) => (
        <button
          key={button.key}
          type="button"
          className="wh-button wh-button--secondary settings-editor__tool"
          aria-pressed={active[button.key]}
          onClick={button.run}
        >
          {t(`customization.editor.${button.key}`)}
        </button>
      ))}
    </div>
  );
}

/** The description's editor (TipTap on ProseMirror); loaded with the customisation section only. */
export default function RichTextEditor({ labelId, describedById, initialHtml, onChange }: RichTextEditorProps) {
  const [content] = useState(() => initialDocument(initialHtml));
  const editor = useEditor({
    extensions,
    content,
    immediatelyRender: true,
    // TipTap would add its base styles in a <style> element, which the page's CSP (style-src 'self') refuses:
    // without them ProseMirror has no `white-space: pre-wrap` and loses spaces typed before a mark. They are in
    // landing-customization.css instead.
    injectCSS: false,
    editorProps: {
      attributes: {
        class: 'wh-input settings-editor__content',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedById ? { 'aria-describedby': describedById } : {}),
      },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });
  useEffect(() => () => editor?.destroy(), [editor]);
  if (!editor) return null;
  return (
    <div className="settings-editor">
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}
