/** Moved down to components/ so every feature's sensitive action can ask for the step-up. */
export { StepUpDialog } from '../../components/step-up-dialog.tsx';
