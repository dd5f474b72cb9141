package scaffold

import (
	"errors"
	"io"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
)

// Prompter asks the questions. The wizard knows only this interface, so
// tests answer with a queue and the terminal library can be swapped.
type Prompter interface {
	// Input asks for a line of text; validate, when set, is run on the
	// answer and a non-nil error asks again.
	Input(prompt, help, defaultValue string, validate func(string) error) (string, error)
	// Select asks for one of options and returns its index. descriptions,
	// when set, holds a one-line explanation of each option.
	Select(prompt string, options, descriptions []string, defaultIndex int) (int, error)
	// MultiSelect asks for any of options and returns their indexes, at
	// least one.
	MultiSelect(prompt string, options, descriptions []string, defaults []int) ([]int, error)
	// Confirm asks a yes-or-no question.
	Confirm(prompt string, defaultValue bool) (bool, error)
}

// ErrInterrupted is returned when the person stops the wizard (Ctrl-C or
// Ctrl-D): nothing has been written.
var ErrInterrupted = errors.New("interrupted")

// SurveyPrompter asks on a terminal with github.com/AlecAivazis/survey/v2.
type SurveyPrompter struct {
	In  terminal.FileReader
	Out terminal.FileWriter
	Err io.Writer
}

func (p *SurveyPrompter) opts() []survey.AskOpt {
	return []survey.AskOpt{survey.WithStdio(p.In, p.Out, p.Err), survey.WithShowCursor(true)}
}

func surveyErr(err error) error {
	if errors.Is(err, terminal.InterruptErr) || errors.Is(err, io.EOF) {
		return ErrInterrupted
	}
	return err
}

// Input implements Prompter.
func (p *SurveyPrompter) Input(prompt, help, defaultValue string, validate func(string) error) (string, error) {
	var answer string
	opts := p.opts()
	if validate != nil {
		opts = append(opts, survey.WithValidator(func(v any) error {
			s, _ := v.(string)
			if s == "" {
				s = defaultValue
			}
			return validate(s)
		}))
	}
	err := survey.AskOne(&survey.Input{Message: prompt, Help: help, Default: defaultValue}, &answer, opts...)
	if answer == "" {
		answer = defaultValue
	}
	return answer, surveyErr(err)
}

// Select implements Prompter.
func (p *SurveyPrompter) Select(prompt string, options, descriptions []string, defaultIndex int) (int, error) {
	q := &survey.Select{Message: prompt, Options: options, PageSize: 12}
	if defaultIndex >= 0 && defaultIndex < len(options) {
		q.Default = options[defaultIndex]
	}
	if descriptions != nil {
		q.Description = func(_ string, i int) string { return descriptions[i] }
	}
	var i int
	err := survey.AskOne(q, &i, p.opts()...)
	return i, surveyErr(err)
}

// MultiSelect implements Prompter.
func (p *SurveyPrompter) MultiSelect(prompt string, options, descriptions []string, defaults []int) ([]int, error) {
	q := &survey.MultiSelect{Message: prompt, Options: options, PageSize: 12,
		Help: "space selects a tool, enter accepts"}
	if defaults != nil {
		var d []string
		for _, i := range defaults {
			d = append(d, options[i])
		}
		q.Default = d
	}
	if descriptions != nil {
		q.Description = func(_ string, i int) string { return descriptions[i] }
	}
	var picked []int
	err := survey.AskOne(q, &picked, append(p.opts(), survey.WithValidator(survey.MinItems(1)))...)
	return picked, surveyErr(err)
}

// Confirm implements Prompter.
func (p *SurveyPrompter) Confirm(prompt string, defaultValue bool) (bool, error) {
	ok := defaultValue
	err := survey.AskOne(&survey.Confirm{Message: prompt, Default: defaultValue}, &ok, p.opts()...)
	return ok, surveyErr(err)
}
