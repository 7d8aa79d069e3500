
Bx0J*ýZÞ9bGZÖâça®`©Þu_ŸáÐÔiÙ÷bâÌÖX\màIcŸbEV‰M