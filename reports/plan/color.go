package plan

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
)

func reportsColor(i int) color.Color { return plotutil.Color(i) }
