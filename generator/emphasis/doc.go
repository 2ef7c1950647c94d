// Package emphasis makes a page's emphasis and strikethrough render in
// Hugo as written next to Korean, Japanese and Chinese text: HugoMarkdown
// gives the page as staged for Hugo (an escaped space where CommonMark's
// flanking rules would leave "**" literal, soft line breaks kept between
// East Asian characters when Hugo would drop them), and Check reports
// the delimiters that would still render literally or strike out a range
// written with "~" (rules page-emphasis and page-strikethrough).
package emphasis
