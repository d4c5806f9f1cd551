import type { CaseMailTexts } from './types';

/** Spanish, usted form, the staff pages' words (docs/i18n.md): comunicación, informante, plazo de resolución. */
export const es: CaseMailTexts = {
  new_report: { subject: 'Nueva comunicación n.º {n}', line: 'Se ha recibido una nueva comunicación (n.º {n}).' },
  assigned: {
    subject: 'Se le ha asignado la comunicación n.º {n}',
    line: 'Se le ha asignado la comunicación n.º {n}.',
  },
  discloser_message: {
    subject: 'Nuevo mensaje en la comunicación n.º {n}',
    line: 'El informante de la comunicación n.º {n} ha enviado un nuevo mensaje.',
  },
  discloser_file: {
    subject: 'Nuevo archivo en la comunicación n.º {n}',
    line: 'El informante de la comunicación n.º {n} ha añadido un archivo.',
  },
  acknowledgement_due_soon: {
    subject: 'Comunicación n.º {n}: acuse de recibo pendiente',
    line: 'Debe acusarse recibo de la comunicación n.º {n} a su informante antes del {due} (UTC).',
  },
  acknowledgement_overdue: {
    subject: 'Comunicación n.º {n}: acuse de recibo vencido',
    line: 'El acuse de recibo de la comunicación n.º {n} debía enviarse antes del {due} (UTC) y no se ha enviado.',
  },
  feedback_due_soon: {
    subject: 'Comunicación n.º {n}: respuesta pendiente',
    line: 'El informante de la comunicación n.º {n} debe recibir una respuesta antes del {due} (UTC).',
  },
  feedback_overdue: {
    subject: 'Comunicación n.º {n}: respuesta vencida',
    line: 'La respuesta a la comunicación n.º {n} debía darse antes del {due} (UTC) y no se ha dado.',
  },
  resolution_due_soon: {
    subject: 'Comunicación n.º {n}: el plazo de resolución vence pronto',
    line: 'El plazo de resolución de la empresa para la comunicación n.º {n} vence el {due} (UTC).',
  },
  resolution_overdue: {
    subject: 'Comunicación n.º {n}: plazo de resolución vencido',
    line: 'El plazo de resolución de la empresa para la comunicación n.º {n} venció el {due} (UTC) y el caso sigue abierto.',
  },
  retention_due: {
    subject: 'La comunicación n.º {n} se eliminará el {due} (UTC)',
    line: 'La comunicación n.º {n} está cerrada y llega al final del plazo de conservación de la empresa: se eliminará definitivamente, con sus mensajes y archivos, el {due} (UTC). Vuelva a abrir el caso antes de esa fecha para conservarlo.',
  },
  open: 'Ábrala en Whistle (es necesario iniciar sesión):',
};
