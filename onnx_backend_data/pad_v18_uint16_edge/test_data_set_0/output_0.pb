ByJT a a a4ПГосос a a a4ПГосос╔r╔r╔rOc░∙uсuсNbNbNb"Ф╨╥
!
!NbNbNb"Ф╨╥
!
!NbNbNb"Ф╨╥
!
!